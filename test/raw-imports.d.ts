// A file's text, as Vite imports it with `?raw` (test/integration/structured-chunks.test.ts reads
// an example document so).
declare module '*.md?raw' {
  const text: string;
  export default text;
}
