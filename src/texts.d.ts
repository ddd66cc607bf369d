/** A language's texts, or a part of them (see build/text-parts-plugin.ts). */
declare module 'texts:*' {
  const texts: Record<string, unknown>;
  export default texts;
}
