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
  // VS Code's own chat needs a Copilot sign-in; a new profile would show it in the secondary side
  // bar, which is left closed (GigaChat is in the activity bar, and can be moved there).
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

module.exports = { SETTINGS };
