// Fixed facts of the emulated service: the demo key, scopes and the model catalogue.
// The ids and shapes mirror docs/service-api.md so clients see what the real service returns.

/** Real keys are base64 of "client_id:client_secret"; this one is too, so decoding checks pass. */
export const DEMO_KEY: string = Buffer.from('demo-client:demo-secret', 'utf8').toString('base64');

export const ALL_SCOPES = ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B', 'GIGACHAT_API_CORP'];

/** Postpaid accounts have no prepaid balance: GET /balance answers 403 for them. */
export const POSTPAID_SCOPE = 'GIGACHAT_API_CORP';

export const CHAT_MODELS = ['GigaChat', 'GigaChat-2', 'GigaChat-2-Pro', 'GigaChat-2-Max', 'GigaChat-2-Max-preview', 'GigaChat-2-Reasoning'];
/** Served on the current contract only (v2/chat/completions), as GigaChat 3 answered in the recordings. */
export const CURRENT_CONTRACT_MODELS = ['GigaChat-3-Ultra'];
/** The chat models that accept pictures as attachments (which ones do for a personal key is not documented: these are assumed). */
export const VISION_MODELS = ['GigaChat-2-Pro', 'GigaChat-2-Max', 'GigaChat-2-Max-preview'];
/** Models that think before they answer: their reasoning comes apart from the answer. */
export const REASONING_MODELS = ['GigaChat-2-Reasoning', 'GigaChat-3-Ultra'];
export const EMBEDDING_MODELS = ['Embeddings', 'EmbeddingsGigaR'];

/** The service answers with a versioned model name such as "GigaChat:2.0.28.2" ("GigaChat-3-Ultra:32.3.18.5" for GigaChat 3). */
export const MODEL_VERSION = '2.0.28.2';
export const MODEL_VERSION_3 = '32.3.18.5';

/** Dimension of every embedding vector (the contract says 1024 for "Embeddings"). */
export const EMBEDDING_DIMENSION = 1024;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A 32×32 baseline JPEG (pink-to-violet gradient with a light disc), made once with cjpeg and checked with djpeg. */
export const DEMO_JPEG: Buffer = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/' +
    '2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAgACADASIAAhEBAxEB/8QAGQAA' +
    'AgMBAAAAAAAAAAAAAAAAAAQCBQYH/8QAIxAAAgEEAQUAAwAAAAAAAAAAAQMCAAQFEUEGEiEx8BNCUf/EABgBAAIDAAAAAAAAAAAAAAAAAAQFAgMG/8QAHREAAgMB' +
    'AAMBAAAAAAAAAAAAAAIBAxEEITFBkf/aAAwDAQACEQMRAD8A6S5tIubQ5tIubTqmk1LuXWMwF/lreT0fjWreoyaSO7+60D6+5qizVpcYy8nbXcO1kfII9SHBB5FbLpPq' +
    'nHWeJhaX7CiaSdS7TITBJPA8a39xkuuc2jMZgutRIJUsKjKX76JPdrj396qfFPU3W1bpiRuTn55+6ATa8tMT6IubSLm0ObSLm00ooLXcHNpJzaHNpFzab00gjuf/2Q==',
  'base64',
);
