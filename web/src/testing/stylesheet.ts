/**
 * Puts one of the app's stylesheets in the test's page, for a test of a rule of layout: jsdom
 * lays nothing out, but computes styles (media queries against its 1024 px window). Read
 * through Node's fs: the tests run in Node, the web app's types know no Node, and Vite hands a
 * test an empty stylesheet. Returns the <style>, to remove when done.
 */
export async function withStylesheet(...paths: string[]): Promise<HTMLStyleElement> {
  const fs = 'node:fs';
  const { readFileSync } = (await import(/* @vite-ignore */ fs)) as {
    readFileSync(path: string, encoding: 'utf8'): string;
  };
  const style = document.createElement('style');
  style.textContent = paths.map((path) => readFileSync(path, 'utf8')).join('\n');
  document.head.append(style);
  return style;
}
