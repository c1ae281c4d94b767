// Fixed facts of the emulated service: the demo key, scopes and the model catalogue.
// The ids and shapes mirror docs/service-api.md so clients see what the real service returns.

/** Real keys are base64 of "client_id:client_secret"; this one is too, so decoding checks pass. */
export const DEMO_KEY: string = Buffer.from('demo-client:demo-secret', 'utf8').toString('base64');

export const ALL_SCOPES = ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B', 'GIGACHAT_API_CORP'];

/**
 * Streams (requests served at once) per account, by its key's scope, as the service's quota page
 * gives them: an individual one, a business ten. A request beyond them is refused with 429.
 */
export const SERVICE_STREAMS: Readonly<Record<string, number>> = { GIGACHAT_API_PERS: 1, GIGACHAT_API_B2B: 10, GIGACHAT_API_CORP: 10 };

/** Postpaid accounts have no prepaid balance: GET /balance answers 403 for them. */
export const POSTPAID_SCOPE = 'GIGACHAT_API_CORP';

export const CHAT_MODELS = ['GigaChat', 'GigaChat-2', 'GigaChat-2-Pro', 'GigaChat-2-Max', 'GigaChat-2-Max-preview', 'GigaChat-2-Reasoning'];
/** Served on the current contract only (v2/chat/completions), as GigaChat 3 answered in the recordings. */
export const CURRENT_CONTRACT_MODELS = ['GigaChat-3-Ultra'];
/** The chat models that accept pictures as attachments (which ones do for a personal key is not documented: these are assumed). */
export const VISION_MODELS = ['GigaChat-2-Pro', 'GigaChat-2-Max', 'GigaChat-2-Max-preview'];
/** Models that think before they answer: their reasoning comes apart from the answer. */
export const REASONING_MODELS = ['GigaChat-2-Reasoning', 'GigaChat-3-Ultra'];
/**
 * The embedding models, as the recorded `GET /models` lists them (type `embedder`, in its order),
 * with the length of their vectors. Only Embeddings' 1024 is recorded (the SDK's cassette and the
 * contract); the others are as integrations that use them report them, and differ on purpose so a
 * client that assumes one length fails here: a client must read the length from the first answer.
 */
export const EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  Embeddings: 1024,
  'Embeddings-2': 1024,
  EmbeddingsGigaR: 2560,
  'GigaEmbeddings-3B-2025-09': 2048,
};
export const EMBEDDING_MODELS = Object.keys(EMBEDDING_DIMENSIONS);

/**
 * The instruction EmbeddingsGigaR's queries are prefixed with (langchain-gigachat's `prefix_query`,
 * space before the line break included). An instruction-tuned model reads it rather than matching
 * its words, so the emulator leaves it out of the features: a query with it finds what one without does.
 */
export const QUERY_INSTRUCTIONS: Readonly<Record<string, string>> = {
  EmbeddingsGigaR: 'Дано предложение, необходимо найти его парафраз \nпредложение: ',
};

/** The service answers with a versioned model name such as "GigaChat:2.0.28.2" ("GigaChat-3-Ultra:32.3.18.5" for GigaChat 3). */
export const MODEL_VERSION = '2.0.28.2';
export const MODEL_VERSION_3 = '32.3.18.5';

/** Dimension of the default model's vectors (the contract says 1024 for "Embeddings"). */
export const EMBEDDING_DIMENSION = EMBEDDING_DIMENSIONS.Embeddings;

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
