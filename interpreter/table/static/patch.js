// A table's picture kept up to date from what changed (interpreter/table/patch.py says the
// operations): ["set", path, value], ["del", path], ["splice", path, start, count, items].
// The picture is changed in place and returned (a "set" at the root replaces it).
function applyPatch(doc, ops) {
  for (const [kind, path, ...args] of ops) {
    if (kind === "set" && path.length === 0) { doc = args[0]; continue; }
    let at = doc;
    for (const key of path.slice(0, -1)) at = at[key];
    const last = path[path.length - 1];
    if (kind === "set") at[last] = args[0];
    else if (kind === "del") delete at[last];
    else if (kind === "splice") {
      const list = path.length ? at[last] : doc;
      list.splice(args[0], args[1], ...args[2]);
    } else throw new Error(`unknown patch operation ${kind}`);
  }
  return doc;
}
if (typeof module !== "undefined") module.exports = {applyPatch};  // for the tests, under node
