import * as vscode from 'vscode';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { describeError } from '../errors/errorDescription';
import { offerErrorActions } from '../errors/errorActions';
import type { Log } from '../log';
import { systemClock, type ChatDependencies } from '../../core';
import type { PictureStore } from './pictureStore';
import { ATTACHMENT_LIMITS } from '../../serviceFacts/attachmentLimits';
import { countMessage } from '../countMessage';
import { activeFile, projectRulesFor, RULES_BUDGET_TOKENS } from '../workspace/rulesForRequest';
import { messageOf } from '../../core';

/** The chat's dependencies in VS Code: the settings, the localized texts, the log channel. */
export function chatHost(clients: ClientProvider, settings: SettingsReader, pictures: PictureStore, log: Log): ChatDependencies {
  return {
    clients,
    pictures,
    readSettings: () => settings.settings(),
    describeError: (error) => describeError(error, log),
    texts: {
      pictureNotDownloaded: (reason) => vscode.l10n.t('The picture could not be downloaded: {0}', reason),
      uploadingPictures: (count) => countMessage('Uploading the files attached to the chat ({0|#})…', count),
      filesLeftOut: (count) =>
        countMessage(
          "{0|The chat's earliest attached file|The chat's # earliest attached files} did not go with this question: GigaChat takes at most {1|# file|# files}, less than {2} MB in all, with one request. Attach a file again to ask about it.",
          count,
          ATTACHMENT_LIMITS.filesPerRequest,
          String(ATTACHMENT_LIMITS.requestBytes / (1024 * 1024)),
        ),
      earlierPicturesLeftOut: (count, model) =>
        countMessage(
          '{1} cannot see pictures, so {0|the picture of an earlier question in this chat was|the # pictures of earlier questions in this chat were} not sent with this one.',
          count,
          model,
        ),
      searchingWorkspace: () => vscode.l10n.t('Looking for the passages of the workspace closest to the question…'),
    },
    rules: {
      // The rules for the file open in the editor; a failure to read them leaves them out, it does not fail the reply.
      find: () =>
        projectRulesFor(activeFile(), RULES_BUDGET_TOKENS).then(
          (used) => ({ text: used.text, files: used.files.map((file) => file.label) }),
          (error: unknown) => {
            log.warn(`Project rules not read: ${messageOf(error)}`);
            return { text: '', files: [] };
          },
        ),
    },
    log,
    clock: systemClock,
  };
}

/** Tells the user the chat history is not being saved, with a button to the log. */
export function warnSaveFailing(log: Log): void {
  // Not awaited: the notification stays until the user closes it, and the chat goes on meanwhile.
  void offerErrorActions(
    'warning',
    vscode.l10n.t('GigaChat could not save this conversation to the chat history. The chat goes on, but the conversation may be missing after a restart.'),
    ['openLogs'],
    log,
  );
}
