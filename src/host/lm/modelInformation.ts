import * as vscode from 'vscode';
import { modelDisplayName, modelLimits, modelSeesPictures } from '../../core';
import type { SettingTypes } from '../../shared/settings';
import { countMessage } from '../countMessage';

/** A GigaChat model as VS Code's model picker lists it. */
export type GigaChatModelInformation = vscode.LanguageModelChatInformation;

/** The picker's entry for a model id from `/models`: figures per family, or as the user's setting overrides them. */
export function modelInformation(id: string, tokenLimits: SettingTypes['modelTokenLimits']): GigaChatModelInformation {
  const { maxInputTokens, maxOutputTokens } = modelLimits(id, tokenLimits);
  const pictures = modelSeesPictures(id);
  return {
    id,
    name: modelDisplayName(id),
    family: id,
    version: id,
    maxInputTokens,
    maxOutputTokens,
    detail: 'GigaChat',
    tooltip: pictures
      ? countMessage('{0} by Sber: {1|# token|# tokens} of context; sees pictures.', id, maxInputTokens)
      : countMessage('{0} by Sber: {1|# token|# tokens} of context.', id, maxInputTokens),
    capabilities: { toolCalling: true, imageInput: pictures },
  };
}
