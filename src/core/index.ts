/**
 * The core's public surface: the GigaChat service client and what goes with it. Everything outside
 * `src/core` (the VS Code layer, tests, other extensions through the exported API) imports from here.
 * Nothing under `src/core` imports `vscode`.
 */
export { ServiceClient } from './service/client';
export { StreamScheduler, type StreamActivity, type StreamPriority } from './streams/streamScheduler';
export { streamsOfScope } from './streams/streamBudget';
export { LeaseFiles } from './streams/leaseFiles';
export { ChatContracts, type ChatContract } from './service/contract/chatContracts';
export type { ServiceClientOptions, RequestOptions, ChatOptions, EmbeddingOptions } from './service/clientOptions';
export { ServiceError, asServiceError, isServiceError } from './serviceError';
export { messageOf } from './base/errorMessage';
export { KEY_SCOPES, findKeyScope, isScopeMismatch } from './service/keyScopes';
export { CONNECTION_LOST, hostOf, isUnknownRootError, NOT_TLS_CODE } from './network/transportErrors';
export { STREAM_CUT } from './service/sse';
export { TOKEN_EXPIRED } from './service/auth';
export { invalidUrlSetting, type ServiceUrlSetting } from './service/serviceUrls';
export type { ServiceErrorKind, ProxyFailure } from './serviceError';
export type { ProxyOptions } from './network/http';
export { redactUrl } from './network/http';
export { BODY_LIMITS, NOT_A_STREAM } from './service/responseBody';
export { redactSecrets } from './base/redact';
export type { Logger } from './base/logger';
export type { RetryPolicy } from './service/retry';
export { sleep } from './service/retry';
export type { BatchLimits } from './service/embeddingBatches';
export type {
  ChatRequest,
  ChatMessage,
  ChatCompletion,
  ChatChunk,
  FinishReason,
  Usage,
  ModelInfo,
  TokenCount,
  BalanceEntry,
  Role,
  FileInfo,
  FunctionCall,
  Sources,
  BuiltInTool,
  ReasoningEffort,
  ResponseFormat,
} from './service/schemas';

// Function calling (tools) and files a user message attaches.
export { toServiceFunction, toServiceFunctions } from './service/serviceFunctions';
export type { ServiceFunction, FunctionCallMode, ToolDescription } from './service/serviceFunctions';
export { FunctionNames, serviceFunctionName } from './service/functionNames';
export { MAX_FUNCTION_DESCRIPTION, MAX_PARAMETER_DESCRIPTION, type PlainSchema } from './service/functionSchema';
export { UPLOAD_TYPES, uploadKind } from './attachments/fileUpload';
export type { UploadOptions } from './attachments/fileUpload';
export { ATTACHMENTS_REFUSED } from './attachments/attachmentErrors';
export { ATTACHMENT_LIMITS, DOCUMENT_TYPES, documentType, fileExtension, checkAddition, fitToRequest } from '../serviceFacts/attachmentLimits';
export type { AttachmentKind, MessageRefusal, SizedFile } from '../serviceFacts/attachmentLimits';
// The one conversation pipeline: the turn model, its converter to the service's messages, the uploader of its files.
export { messageText } from './conversation/turns';
export type { ConversationFile, ConversationMessage, ConversationPart } from './conversation/turns';
export { toServiceConversation } from './conversation/serviceConversation';
export type { PendingFile, ServiceConversation } from './conversation/serviceConversation';
export { FileUploads, pictureFromBytes } from './conversation/fileUploads';

// The chat engine: conversations and their turns, questions, the replies written into them, the history.
export type {
  CodebaseContext,
  Conversation,
  ConversationSummary,
  ExplainedCode,
  FoundPassages,
  Prompt,
  QuotedSource,
  ReplyError,
  SourceLines,
  StoredDocument,
  StoredPicture,
  StoredTurn,
  TurnStatus,
  TurnUsage,
} from './chat/storedTurns';
export type {
  ChatClient,
  ChatClients,
  ChatDependencies,
  ChatFiles,
  ChatSettings,
  ChatTexts,
  CodebaseSource,
  FoundContext,
  RulesSource,
} from './chat/chatDependencies';
export { newConversation, titleFrom, pictureIdsOf, questionPictureIds, storedPictureIds } from './chat/conversations';
export { addQuestion, replaceQuestion } from './chat/questions';
export { codebaseSources, codebaseText } from './chat/codebasePassages';
export { CodebaseUnavailable } from './chat/codebaseTurn';
export { SavedConversations, type ConversationStorage } from './chat/savedConversations';
export { ChatEngine } from './chat/chatEngine';
export type { ChatEvent, ChatListener } from './chat/chatEvents';
export { systemClock, type Clock } from './base/clock';

// Completions as you type: where to ask, the request, the cleaning of the reply, the cache.
export { completesBlock, worthCompleting, type CompletionSite } from './completion/completionSite';
export { completeAt, type Completion, type CompletionRequest } from './completion/completeAt';
export { sendableRequest } from './completion/sendableRequest';
export { CompletionCache } from './completion/completionCache';
export { Suggester, type Ask, type SuggestionSite, type SuggesterEvents } from './completion/suggester';
export { InfillServer, type InfillServerOptions } from './completion/infillServer';
export { FIM_TEMPLATES, INFILL_SERVER_KINDS, isInfillTemplate, type InfillServerKind } from './completion/infillWire';
export { readReplyText, type ReplyTextNotes } from './service/readableReply';
export { TokenCounter, estimateTokens } from './service/tokenCounter';
export { modelLimits, modelReasons, modelSeesPictures, modelDisplayName, pictureModelAmong } from '../serviceFacts/modelFacts';
export type { ModelLimits } from '../serviceFacts/modelFacts';
export { parseMediaReply, stableStreamingPrefix } from './service/mediaReply';
export { linkSourceMarkers, stableSourcePrefix, webSearchTools, webSourceList, type WebSource } from './service/webSources';
export type { MediaReply, ReplyPart } from './service/mediaReply';
export { applyChunk, collectReply, functionCallOf } from './service/chatReply';
export { chatStreamWithinContext } from './service/contextFit';
export type { ChatReply } from './service/chatReply';
export { trustedRoots, splitPemBundle, certificatesFromFile } from './network/trust';

// Trusting a root certificate safely, and checking the way to the service step by step.
export {
  checkPin,
  readCertificates,
  readSingleCertificate,
  formatFingerprint,
  readableName,
  PinMismatchError,
  NotACertificateError,
} from './network/certificatePin';
export type { CertificatePin, CertificateSummary } from './network/certificatePin';
export { RUSSIAN_TRUSTED_ROOT_PIN } from './network/russianTrustedRoot';
export { downloadPinnedCertificate, PinnedDownloadError } from './network/pinnedDownload';
export type { DownloadFailure, PinnedDownloadOptions } from './network/pinnedDownload';
export { PinnedRootFile } from './network/pinnedRootFile';
export { checkConnection } from './connectionCheck/connectionCheck';
export type { CheckStep, CheckStepId, ConnectionCheckOptions } from './connectionCheck/connectionCheck';
export { ProxyRoutes, type Proxy } from './network/proxyRoutes';
export { isLoopbackUrl, travelsUnencrypted } from './network/loopback';
export { probeTls } from './connectionCheck/tlsProbe';
export type { TlsProbeResult } from './connectionCheck/tlsProbe';

// Semantic search: chunking, the persistent embedding cache, the indexer and the vector index.
export { chunkText, embeddingText } from './search/syntax/chunker';
export { lineChunker, SyntaxChunker, type SourceChunker } from './search/syntax/syntaxChunker';
export { WorkerChunker } from './search/syntax/workerChunker';
export { ChunkBoundaries, ReusingChunker } from './search/syntax/chunkBoundaries';
export { KEYWORDS_FILE, loadKeywords, saveKeywords, type SavedKeywords } from './search/keyword/keywordIndexFile';
export { GRAMMARS, grammarFile, grammarFor } from './search/syntax/grammars';
export { hitExcerpt, quotedLines, MAX_EXCERPT_CHARS } from './search/hitExcerpt';
export { codebaseBudget, fitPassages, mergeHits } from './search/codebaseContext';
export { bestScore, matchStrength, relevantHits, type MatchStrength } from './search/relevance';
export type { Passage, QuotedPassage } from './search/codebaseContext';
export type { Chunk, ChunkOptions } from './search/syntax/chunker';
export { EmbeddingCache } from './search/cache/embeddingCache';
export { isDiskFull } from './search/cache/cacheFiles';
export type { CacheLoadInfo } from './search/cache/embeddingCache';
export { WorkspaceIndexer } from './search/indexer';
export { saveSearchIndex, STALE_SHORTCUTS_SHARE, type ShortcutsPolicy } from './search/indexSave';
export type { IndexRunResult, IndexProgress, SearchHit, SourceFile, WorkspaceIndexerOptions } from './search/indexer';
export { VectorIndex } from './search/vector/vectorIndex';
export type { VectorMatch, VectorIndexOptions } from './search/vector/vectorIndex';
export { IgnoreRules, ROOT_EXCLUDES_PATH } from './search/files/ignoreRules';
export { FolderExclusions } from './search/files/fileExclusion';
export { indexingCancelled } from './search/indexingCancelled';
export { isDimensionsChanged } from './search/cache/dimensionsChanged';
export { queryForModel } from './search/queryInstruction';
export { SharedRun } from './base/sharedRun';
export { isRecord } from './base/isRecord';
export { writeFileAtomically } from './base/atomicFile';
export type { ExclusionReason } from './search/files/ignoreRules';
export { readRepositoryRules } from './search/files/repositoryRules';
export type { GitEnvironment, RepositoryRules } from './search/files/repositoryRules';
export { selectFiles, readSelectedFile, readSelectedFiles } from './search/files/fileSelection';
export type { FolderSource, SelectionLimits, SkipReason, SelectedFile, FileSelection } from './search/files/fileSelection';
export { decodeSourceText } from './search/files/sourceText';
export { diskLinkProbe, LinkFinder } from './search/files/symbolicLinks';
export type { LinkOnPath, LinkProbe, LinkReason } from './search/files/symbolicLinks';

// A turn with tools (the chat engine's rounds and loop), what a turn did, tool calls checked against what was offered, bounded results, safe links.
export { runAgentLoop, notOffered, MAX_TOOL_CALLS } from './chat/toolLoop';
export { chooseAgentTools, MCP_TAG } from './agent/toolChoice';
export type { ListedTool, ToolChoice } from './agent/toolChoice';
export type { AgentLoop, AgentOutcome, ToolCall, ToolOutcome } from './chat/toolLoop';
export { askModel, CallStates } from './chat/modelRound';
export { streamReply } from './chat/replyStream';
export type { ModelRound, RoundListener, RoundRequest, RoundServices, RoundTexts } from './chat/modelRound';
export { answerWithTools } from './chat/toolTurn';
export type { ChatTools, ToolTurn, ToolTurnListener } from './chat/toolTurn';
export { emptyTurnRecord, changedFiles, forHistory, readTurnRecord, turnMessages, HISTORY_RESULT_BOUNDS } from './agent/turnRecord';
export type { TurnRecord, ToolRound, ToolCallRecord } from './agent/turnRecord';
export { changesPerFile, planTurnUndo } from './agent/turnUndo';
export type { FileChange, UndoStep } from './agent/turnUndo';
export { replyWithOfferedCalls, unofferedCorrection, MAX_CORRECTIONS } from './chat/offeredCalls';
export type { OfferedReply } from './chat/offeredCalls';
export { maskedHead, maskedNote, maskTokens } from './workspace/secretShapes';
export { boundedText, TOOL_RESULT_BOUNDS } from './agent/boundedText';
export { fileLines } from './agent/fileLines';
export type { TextBounds } from './agent/boundedText';
export { LinkGuard, guardLinks } from './agent/linkGuard';
export type { AllowedTarget } from './agent/linkGuard';

// The workspace's files as an agent's tools reach them, by a path a model gave.
export { WorkspaceFiles } from './workspace/workspaceFiles';
export type { PathRefusalReason, PathVerdict, WorkspaceFilesOptions, WorkspaceFolderAccess } from './workspace/workspaceFiles';
export type { FolderFileReader } from './search/files/fileExclusion';

// Changes an agent makes: the edit, what it may not hide, which files can run code.
export { planEdit, changeSummary } from './workspace/editPlan';
export type { EditInput, EditPlan, ChangeSummary } from './workspace/editPlan';
export { reviewChange } from './workspace/changeSafety';
export type { ChangeReview } from './workspace/changeSafety';
export { sensitivity } from './workspace/sensitiveFiles';
export { readRegularFile } from './workspace/regularFileRead';
export type { RegularFileRead } from './workspace/regularFileRead';
export type { SensitiveKind, Sensitivity } from './workspace/sensitiveFiles';
export { addedLines, parseUnifiedDiff } from './scm/unifiedDiff';
export type { DiffFile, DiffHunk, DiffStatus } from './scm/unifiedDiff';
export { rulesJudge, sendableChange, withheldFor, type ChangedFile, type PathJudge, type PathRules, type WithheldReason } from './scm/sendableChange';
export { changeDigest, MAX_HUNK_LINES, NUMBERED_HUNKS, PLAIN_HUNKS, type ChangeDigest, type HunkRendering, type ShownRange } from './scm/changeDigest';
export { branchTicket, commitStyle, type CommitLanguage, type CommitStyle } from './scm/commitStyle';
export { cleanCommitMessage, commitMessagePrompt, type CommitRequest } from './scm/commitPrompt';
export { commitMessageRequest, streamCommitMessage, UnfinishedCommitMessage, MAX_DIGEST_TOKENS, type CommitMessageInput } from './scm/commitMessage';
export { FINDINGS_JSON_SCHEMA, readFindings, SEVERITIES } from './scm/reviewFindings';
export type { Finding, ReadingKind, ReviewReading, Severity } from './scm/reviewFindings';
export { reviewPrompt } from './scm/reviewPrompt';
export type { ReviewPrompt } from './scm/reviewPrompt';
export { placeFindings } from './scm/findingPlacement';
export type { PlacedFinding, Placement } from './scm/findingPlacement';
export { askForReview } from './scm/reviewRequest';
export type { ReviewRequest } from './scm/reviewRequest';
export { findingEdit, reviewedText } from './scm/findingFix';
// The prompt layer: parts with priorities fitted to one token budget, what was left out reported.
export { fitPrompt, promptMessages, JOIN_TOKENS, type FittedPrompt, type PromptPart, type Shrink } from './prompt/fitPrompt';
export { fitItems, listPart, trimAtLineEnds } from './prompt/shrinking';
export { RULES_BUDGET_TOKENS, systemText } from './prompt/systemText';
export { fitRules, readProjectRules, type FittedRules, type RuleAccess } from './rules/projectRules';
export { frontMatter, globPattern, selectRules, type ProjectRule, type RuleFile, type RuleKind } from './rules/ruleSelection';
