// Runs after `npm install` (package.json "postinstall"). Defects of the PDF.js that unpdf bundles
// make hostile PDFs cost a worker its CPU or memory instead of a 422:
// 1. graphics/text state clone() makes each saved state the PROTOTYPE of the next, so a page
//    with thousands of nested `q` operators gets prototype chains thousands deep and every
//    property read walks them (a 40 KB page took 5-15 s in workerd, 32,000 `q` 170 s in Node);
// 2. Flate streams inflate without any limit (a 1 KB upload deflated twice became 256 MiB,
//    more than a Worker's 128 MB);
// 3. nothing bounds the work of one DOCUMENT: 20 pages that all point at one 60 MB content
//    stream decode and parse it 20 times (7 s, ~1 GB in workerd; 500 pages would take minutes).
// The fix: flat clones; decoded streams capped at 64 MiB each (refused as a FormatError, which
// the knowledge worker answers as a corrupt PDF); and a per-document meter (see
// workers/knowledge/src/ingest/pdf-work-budget.ts) that pdf.js charges with every byte a
// decoder produces and every content-stream byte the operator parser reads. The meter is found
// through the document's XRef: its PDF manager's docId keys a registry that the extractor
// fills before pdf.js sees the document, so two documents parsed at once in one isolate each
// have their own. Exact replacements; if the bundle ever changes, this fails loudly rather than
// silently leaving the defects in.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = '67108864'; // 64 MiB of decoded data per stream
const TOO_LARGE = `throw new FormatError$1(\`Decoded stream too large\`)`;

// Prepended to the bundle. `x` is a document's XRef; the meter (or null) is remembered on it.
// A meter's charge() answers false once its budget is spent; the FormatError thrown then stops
// the decoder or parser, and is not mistaken for a reason to retry another way (the
// DecompressionStream path falls back to the JavaScript decoder on other errors).
const HELPERS =
  '/* kbchat patch-pdfjs: per-document work meter */' +
  'function __kbchatMeter(x){if(!x)return null;let m=x.__kbchatMeter;if(m===void 0){' +
  'let r=globalThis[Symbol.for("kbchat.pdfjs.meters")];' +
  'm=x.__kbchatMeter=r?.get(x.pdfManager?.docId)??null}return m}' +
  'function __kbchatCharge(x,k,n){let m=__kbchatMeter(x);' +
  'if(m!==null&&!m.charge(k,n))throw new FormatError$1("Document work budget spent")}' +
  'function __kbchatDecoded(s,e){let o=s.__kbchatSeen??0;' +
  'if(e>o){s.__kbchatSeen=e;__kbchatCharge(s.dict?.xref,"decodedBytes",e-o)}}' +
  // A content stream stored uncompressed is a window on the file: its positions count from the
  // window's start in the file, not from 0 (charging from 0 made page n cost everything before
  // it: 500 plain pages came to 355 MB "parsed").
  'function __kbchatParsed(p){let s=p.parser.lexer.stream,d=s.pos-(p.__kbchatPos??s.start??0);' +
  'if(d>0){p.__kbchatPos=s.pos;__kbchatCharge(p.parser.xref,"parsedBytes",d)}}\n';

/** [description, before (original, then any earlier patched forms), after] */
const replacements = [
  [
    'flat graphics-state clone',
    ['ineMatrix.slice()}clone(){let e=Object.assign(Object.create(this),this);'],
    'ineMatrix.slice()}clone(){let e=Object.assign(Object.create(Object.getPrototypeOf(this)),this);',
  ],
  [
    'flat text-state clone',
    ['is.clipBox=new Float32Array([0,0,e,t])}clone(){let e=Object.create(this);'],
    'is.clipBox=new Float32Array([0,0,e,t])}clone(){let e=Object.assign(Object.create(Object.getPrototypeOf(this)),this);',
  ],
  [
    'decoded-stream cap and meter (synchronous decoders)',
    [
      'sureBuffer(e){let t=this.buffer;if(e<=t.byteLength)return t;',
      `sureBuffer(e){let t=this.buffer;if(e<=t.byteLength)return t;if(e>${LIMIT})${TOO_LARGE};`,
    ],
    `sureBuffer(e){__kbchatDecoded(this,e);let t=this.buffer;if(e<=t.byteLength)return t;if(e>${LIMIT})${TOO_LARGE};`,
  ],
  [
    'decoded-stream cap and meter (DecompressionStream)',
    [
      'let a=[],o=0;for await(let e of n)a.push(e),o+=e.byteLength;',
      `let a=[],o=0;for await(let e of n){if(o+=e.byteLength,o>${LIMIT})${TOO_LARGE};a.push(e)}`,
    ],
    `let a=[],o=0;for await(let e of n){if(o+=e.byteLength,o>${LIMIT})${TOO_LARGE};__kbchatCharge(this.dict?.xref,"decodedBytes",e.byteLength);a.push(e)}`,
  ],
  [
    'cap errors are not swallowed by the DecompressionStream fallback',
    ['return{decompressed:s,compressed:t}}catch{'],
    'return{decompressed:s,compressed:t}}catch(e){if(e instanceof FormatError$1)throw e;',
  ],
  [
    'parse meter (each operator read)',
    ['read(e){let t=e.args;for(;;){let n=this.parser.getObj();'],
    'read(e){__kbchatParsed(this);let t=e.args;for(;;){let n=this.parser.getObj();',
  ],
  [
    'parse meter (end of a content stream)',
    ['if(n===te)return!1;'],
    'if(n===te)return __kbchatParsed(this),!1;',
  ],
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'node_modules', 'unpdf', 'dist', 'pdfjs.mjs');
let source = readFileSync(file, 'utf8');
let changed = 0;

function fail(message) {
  console.error(`patch-pdfjs: ${message} in ${file}.`);
  console.error('patch-pdfjs: unpdf changed; re-check the PDF.js fixes in dev/patch-pdfjs.mjs.');
  process.exit(1);
}

if (!source.startsWith(HELPERS)) {
  if (source.includes('kbchat patch-pdfjs')) {
    fail(
      'an older version of the helpers is present (reinstall unpdf: rm -r node_modules/unpdf && npm install)',
    );
  }
  source = HELPERS + source;
  changed++;
}
for (const [description, befores, after] of replacements) {
  const afterCount = source.split(after).length - 1;
  if (afterCount === 1) continue; // already patched
  // The latest earlier form first: an original text may be a prefix of its patched form.
  const before = [...befores].reverse().find((text) => source.includes(text)) ?? befores[0];
  const count = source.split(before).length - 1;
  if (afterCount !== 0 || count !== 1) {
    fail(`expected exactly one "${before.slice(0, 60)}…" (${description}), found ${count}`);
  }
  source = source.replace(before, after);
  changed++;
}
if (changed > 0) writeFileSync(file, source);
console.log(
  `patch-pdfjs: ${changed === 0 ? 'already patched' : `${changed} fixes applied`} (${path.relative(process.cwd(), file)})`,
);
