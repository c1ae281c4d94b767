/**
 * Where the core reports what it does. The VS Code layer passes its log channel; tests pass a
 * collector. Nothing logged through it may contain the authorization key or an access token.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
