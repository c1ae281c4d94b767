// The emulator's public surface. Tests, benchmarks and scripts import from here only, so the
// files behind it can be reorganised freely.
export { DEMO_KEY, SERVICE_STREAMS } from './constants';
export { Emulator } from './emulator';
export type { EmulatorOptions, Endpoint, Fault, FaultRule, RecordedRequest } from './types';
export { TestProxy } from './proxy';
export { CertificateDownloadHost } from './certificateDownloads';
export type { DownloadVariant } from './certificateDownloads';
