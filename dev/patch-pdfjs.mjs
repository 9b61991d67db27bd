// Runs after `npm install` (package.json "postinstall"). Two defects of the PDF.js that unpdf
// bundles make hostile PDFs cost a worker its CPU or memory instead of a 422:
// 1. graphics/text state clone() makes each saved state the PROTOTYPE of the next, so a page
//    with thousands of nested `q` operators gets prototype chains thousands deep and every
//    property read walks them (a 40 KB page took 5-15 s in workerd, 32,000 `q` 170 s in Node);
// 2. Flate streams inflate without any limit (a 1 KB upload deflated twice became 256 MiB,
//    more than a Worker's 128 MB).
// The fix: flat clones, and decoded streams capped at 64 MiB (refused as a FormatError, which
// the knowledge worker answers as a corrupt PDF). Exact replacements; if the bundle ever
// changes, this fails loudly rather than silently leaving the defects in.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = '67108864'; // 64 MiB of decoded data per stream
const TOO_LARGE = `throw new FormatError$1(\`Decoded stream too large\`)`;

const replacements = [
  [
    'ineMatrix.slice()}clone(){let e=Object.assign(Object.create(this),this);',
    'ineMatrix.slice()}clone(){let e=Object.assign(Object.create(Object.getPrototypeOf(this)),this);',
  ],
  [
    'is.clipBox=new Float32Array([0,0,e,t])}clone(){let e=Object.create(this);',
    'is.clipBox=new Float32Array([0,0,e,t])}clone(){let e=Object.assign(Object.create(Object.getPrototypeOf(this)),this);',
  ],
  [
    'sureBuffer(e){let t=this.buffer;if(e<=t.byteLength)return t;',
    `sureBuffer(e){let t=this.buffer;if(e<=t.byteLength)return t;if(e>${LIMIT})${TOO_LARGE};`,
  ],
  [
    'let a=[],o=0;for await(let e of n)a.push(e),o+=e.byteLength;',
    `let a=[],o=0;for await(let e of n){if(o+=e.byteLength,o>${LIMIT})${TOO_LARGE};a.push(e)}`,
  ],
  [
    'return{decompressed:s,compressed:t}}catch{',
    'return{decompressed:s,compressed:t}}catch(e){if(e instanceof FormatError$1)throw e;',
  ],
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'node_modules', 'unpdf', 'dist', 'pdfjs.mjs');
let source = readFileSync(file, 'utf8');
let changed = 0;
for (const [before, after] of replacements) {
  if (source.includes(after)) continue; // already patched
  const count = source.split(before).length - 1;
  if (count !== 1) {
    console.error(
      `patch-pdfjs: expected exactly one "${before.slice(0, 60)}…" in ${file}, found ${count}.`,
    );
    console.error('patch-pdfjs: unpdf changed; re-check the PDF.js fixes in dev/patch-pdfjs.mjs.');
    process.exit(1);
  }
  source = source.replace(before, after);
  changed++;
}
if (changed > 0) writeFileSync(file, source);
console.log(
  `patch-pdfjs: ${changed === 0 ? 'already patched' : `${changed} fixes applied`} (${path.relative(process.cwd(), file)})`,
);
