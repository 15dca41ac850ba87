// The Meeple rules extension: starts `meeple lsp` (setting `meeple.command`) and talks to it over stdio.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function serverCommand() {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
  const command = vscode.workspace.getConfiguration("meeple").get("command", "meeple") || "meeple";
  return command.replace(/\$\{workspaceFolder\}/g, folder);
}

async function start() {
  const command = serverCommand();
  client = new LanguageClient(
    "meeple",
    "Meeple rules",
    { command, args: ["lsp"] },
    {
      documentSelector: [
        { scheme: "file", language: "meeple" },
        { scheme: "untitled", language: "meeple" },
      ],
    }
  );
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `Meeple: could not start \`${command} lsp\` (${err.message}). ` +
        "Set `meeple.command` to the meeple program, e.g. .venv/bin/meeple."
    );
  }
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("meeple.command")) {
        await deactivate();
        await start();
      }
    })
  );
  await start();
}

async function deactivate() {
  if (client) {
    const old = client;
    client = undefined;
    try {
      await old.stop();
    } catch (err) {
      // the server never started: nothing to stop
    }
  }
}

module.exports = { activate, deactivate };
