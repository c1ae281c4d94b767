/**
 * The GigaChat API page of Sber's developer site: it opens (or creates) the user's GigaChat API
 * project, where the authorization key is generated and the balance topped up. The most direct
 * way to a key the site offers; the walkthrough's Get a Key links to it too (package.nls*.json,
 * checked by test/unit/firstRunManifest.test.ts).
 */
export const GIGACHAT_API_PAGE = 'https://developers.sber.ru/studio/workspaces/my-space/get/gigachat-api';
