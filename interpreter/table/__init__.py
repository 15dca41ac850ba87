"""The play table: people play any ruleset in a browser, together (`meeple serve`).

- `command.py` `meeple serve`: arguments, checks, uvicorn
- `hall.py`    the games on offer, the open tables, who watches which; runs the bots
- `store.py`   tables and their decisions in SQLite; a table is rebuilt by replaying them;
               one server owns one database (a lock beside it)
- `live.py`    a table in play: the engine, the state, the log, undo, who may do what
- `model.py`   the picture of the table one seat's page draws from (only what that seat may see)
- `pages.py`   a seat's whole page (picture, decision, log), built once per change and shared
- `seats.py`   who sits where as the pages say it: players' names for P1, P2, concessions in the
               log and the result, the rematch link, the header's part of the game
- `bots.py`    the agents in the bot seats, and their caps at a table
- `replays.py` a recorded trace (or a table at this server) stepped through, per seat or public;
               the bounded cache of uploads
- `outbox.py`  each page's own send queue: a page that stops reading is dropped, not its table
- `bodies.py`  what a client may send: request bodies and socket messages, checked
- `guard.py`   the allowed Host names, and no changes asked by another site's page
- `app.py`     the Starlette routes and WebSockets
- `static/`    the pages: plain HTML, CSS and JavaScript, no build step
"""
