// User settings of the VS Code profiles the harness starts (tests and `npm start`):
// nothing that pops up over the workbench, nothing that calls the network.
'use strict';

const SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'security.workspace.trust.enabled': false,
  // VS Code's own Chat is off in the test windows (its built-in Copilot extension would start,
  // open the secondary side bar and look for the network); the suite about GigaChat in VS Code's
  // Chat turns it on itself, and `npm start` turns it on for the demo (START_SETTINGS).
  'chat.disableAIFeatures': true,
  // Lets VS Code's own agent run without a GitHub sign-in once a suite turns its Chat on. It can
  // only be written to settings.json: VS Code does not register it for the settings API.
  'chat.allowAnonymousAccess': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** What `npm start` sets on every start, over what the profile holds: VS Code's Chat shown, with @gigachat in it. */
const START_SETTINGS = { 'chat.disableAIFeatures': false };

module.exports = { SETTINGS, START_SETTINGS };
