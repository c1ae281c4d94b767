/**
 * The instruction a model was trained to read before a search query, by model id. Only queries
 * get it: the chunks of the workspace are embedded as they are, so the cache stays valid.
 *
 * EmbeddingsGigaR: the official LangChain integration (langchain-gigachat, `GigaChatEmbeddings`)
 * keeps this exact text as `prefix_query` (space before the line break included) and, with
 * `use_prefix_query`, puts it straight in front of the text in `embed_query` only, never in
 * `embed_documents`. The other models document none the service is known to expect.
 */
const QUERY_INSTRUCTIONS: Readonly<Record<string, string>> = {
  EmbeddingsGigaR: 'Дано предложение, необходимо найти его парафраз \nпредложение: ',
};

/** What to embed for the search query `query` with `model`: the query after the model's instruction, if it has one. */
export function queryForModel(model: string, query: string): string {
  return (QUERY_INSTRUCTIONS[model] ?? '') + query;
}
