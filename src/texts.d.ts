/** A language's texts, or a part of them (see `textParts` in vite.config.ts). */
declare module 'texts:*' {
  const texts: Record<string, unknown>;
  export default texts;
}
