/** A check built from a schema (see `compiledChecks` in vite.config.ts). */
declare module 'compiled-checks:*' {
  const check: (value: unknown) => boolean;
  export default check;
}
