/** Command-line options of the benchmark scripts: `--name value`. */

export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}

export function numberOption(name: string, fallback: number): number {
  return Number(option(name, String(fallback)));
}

/** A comma-separated list of numbers; '' is none. */
export function listOption(name: string, fallback: string): number[] {
  const value = option(name, fallback);
  return value === '' ? [] : value.split(',').map(Number);
}
