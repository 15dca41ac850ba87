"""The play table: people play any ruleset in a browser, together (`meeple serve`).

- `command.py` `meeple serve`: arguments, checks, uvicorn
- `hall.py`    the games on offer, the open tables, who watches which; runs the bots
- `store.py`   tables and their decisions in SQLite; a table is rebuilt by replaying them
- `live.py`    a table in play: the engine, the state, the log, undo, who may do what
- `model.py`   the JSON one seat's page draws from (only what that seat may see)
- `bots.py`    the agents in the bot seats
- `replays.py` a recorded trace stepped through, per seat or public
- `app.py`     the Starlette routes and WebSockets; `serve()` runs it under uvicorn
- `static/`    the pages: plain HTML, CSS and JavaScript, no build step
"""
