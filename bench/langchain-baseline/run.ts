// The ingest target's yardstick: a plain LangChain.js pipeline (PDFLoader → RecursiveCharacter-
// TextSplitter 500/100 → OpenAIEmbeddings → PGVectorStore with an HNSW index) against the SAME
// database and embedding endpoint as kbchat's own upload, on the same PDFs, in pages/s.
//
//   npm run bench:langchain        # installs this folder's dependencies first
//
// It starts an isolated local stack (fresh data folder, offline model), then for each PDF
// uploads it to kbchat over HTTP and runs the LangChain pipeline on it, alternating, both into
// tables that already hold the earlier PDFs' chunks with their HNSW index. pg connects to the
// stack's database front; OpenAIEmbeddings to the offline model's /v1.
//
// Its dependencies live in this folder (package.json): as root devDependencies npm refuses them
// (@langchain/community's optional peer @browserbasehq/stagehand wants openai 4; the project has
// openai 7). They are loaded by computed specifiers so that the project's type check, which
// covers bench/, does not need them installed.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { makeManyPagesPdf } from '../../dev/fixtures/pdf-builder.ts';
import {
  CHINESE_POLICY_PRINTED,
  ENGLISH_REPORT_PRINTED,
} from '../../dev/fixtures/printed-fixtures.ts';
import { launchDev } from '../../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../../dev/stack/seed.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const load = (specifier: string) => import(specifier) as Promise<Record<string, unknown>>;

interface LangChainDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
}
interface Loader {
  load(): Promise<LangChainDocument[]>;
}
interface Splitter {
  splitDocuments(docs: LangChainDocument[]): Promise<LangChainDocument[]>;
}
interface VectorStore {
  pool: {
    on(event: 'error', listener: (err: Error) => void): void;
    query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  };
  ensureTableInDatabase(dimensions: number): Promise<void>;
  createHnswIndex(config: { dimensions: number; m: number; efConstruction: number }): Promise<void>;
  addDocuments(docs: LangChainDocument[]): Promise<void>;
  end(): Promise<void>;
}
type Constructor<T> = new (...args: unknown[]) => T;

const PDFS: { name: string; bytes: () => Uint8Array }[] = [
  { name: 'register-236', bytes: () => makeManyPagesPdf(236) },
  { name: 'register-400', bytes: () => makeManyPagesPdf(400) },
  { name: CHINESE_POLICY_PRINTED.name, bytes: CHINESE_POLICY_PRINTED.bytes },
  { name: ENGLISH_REPORT_PRINTED.name, bytes: ENGLISH_REPORT_PRINTED.bytes },
];

async function databaseUrl(dataDir: string): Promise<string> {
  // As the owner: the baseline makes tables of its own.
  const env = await readFile(path.join(dataDir, 'owner.env'), 'utf8');
  const url = /^DATABASE_URL=(.+)$/m.exec(env)?.[1];
  if (!url) throw new Error('no DATABASE_URL in owner.env');
  return url;
}

async function main(): Promise<void> {
  const { PDFLoader } = (await load('@langchain/community/document_loaders/fs/pdf')) as {
    PDFLoader: Constructor<Loader>;
  };
  const { RecursiveCharacterTextSplitter } = (await load('@langchain/textsplitters')) as {
    RecursiveCharacterTextSplitter: Constructor<Splitter>;
  };
  const { OpenAIEmbeddings } = (await load('@langchain/openai')) as {
    OpenAIEmbeddings: Constructor<unknown>;
  };
  const { PGVectorStore } = (await load('@langchain/community/vectorstores/pgvector')) as {
    PGVectorStore: Constructor<VectorStore>;
  };

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-langchain-'));
  const stack = await launchDev({ dataDir });
  try {
    const modelBase = stack.modelControlUrl.replace(/\/_control$/, '');
    const login = await fetch(`${stack.baseUrl}/moduleauth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(LOCAL_ADMIN),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;

    const embeddings = new OpenAIEmbeddings({
      model: 'text-embedding-3-small',
      dimensions: 1536,
      apiKey: 'offline',
      configuration: { baseURL: `${modelBase}/v1` },
    });
    // Not PGVectorStore.initialize: it keeps one pooled client checked out for good, and the
    // local database front serves one session at a time, so the pool's next query would wait
    // for ever. The same table, index and inserts, without the idle client.
    // The front also hands the database to kbchat's uploads in between: the pool lets its
    // connection go as soon as it is idle, and a connection the front ends is not an error.
    const store = new PGVectorStore(embeddings, {
      postgresConnectionOptions: {
        connectionString: await databaseUrl(dataDir),
        max: 1,
        idleTimeoutMillis: 100,
      },
      tableName: 'langchain_chunks',
      distanceStrategy: 'cosine',
    });
    store.pool.on('error', (err: Error) => console.warn(`langchain pool: ${err.message}`));
    await store.ensureTableInDatabase(1536);
    await store.createHnswIndex({ dimensions: 1536, m: 16, efConstruction: 64 });
    await createFloorTable(store);

    const results = [];
    for (const pdf of PDFS) {
      const bytes = pdf.bytes();
      const file = path.join(dataDir, `${pdf.name}.pdf`);
      await writeFile(file, bytes);

      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'application/pdf' }), `${pdf.name}.pdf`);
      const t0 = performance.now();
      const upload = await fetch(`${stack.baseUrl}/moduleknowledge/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
        signal: AbortSignal.timeout(600_000),
      });
      const answer = await upload.text();
      const kbchat_s = (performance.now() - t0) / 1000;
      // A refusal is a result too (e.g. 422 pdf_too_complex): LangChain still gets the file.
      const kb = upload.ok
        ? (JSON.parse(answer) as { data: { id: string; pages: number; chunks: number } }).data
        : undefined;
      const refused = upload.ok ? undefined : `${upload.status}: ${answer.slice(0, 200)}`;
      const floor_s = kb ? await indexFloor(store, kb.id) : undefined;
      const request_s = kb
        ? await roundTrip(`${stack.baseUrl}/moduleknowledge/file_status?id=${kb.id}`, token)
        : undefined;

      const t1 = performance.now();
      const pages = await new PDFLoader(file, { splitPages: true }).load();
      const t2 = performance.now();
      const chunks = await new RecursiveCharacterTextSplitter({
        chunkSize: 500,
        chunkOverlap: 100,
      }).splitDocuments(pages);
      const t3 = performance.now();
      await store.addDocuments(chunks);
      const t4 = performance.now();
      const langchain_s = (t4 - t1) / 1000;
      const result = {
        pdf: pdf.name,
        pages: pages.length,
        kbchat: kb
          ? {
              chunks: kb.chunks,
              seconds: round(kbchat_s),
              pages_per_s: round(kb.pages / kbchat_s),
              floor_s: round(floor_s!),
              request_s: round(request_s!),
            }
          : { refused },
        langchain: {
          pages: pages.length,
          chunks: chunks.length,
          seconds: round(langchain_s),
          pages_per_s: round(pages.length / langchain_s),
          load_s: round((t2 - t1) / 1000),
          split_s: round((t3 - t2) / 1000),
          embed_and_store_s: round((t4 - t3) / 1000),
        },
        kbchat_vs_langchain: kb ? round(kb.pages / kbchat_s / (pages.length / langchain_s)) : null,
        // The best kbchat ÷ LangChain that any service could reach which answers over HTTP and
        // maintains this HNSW index while it ingests: LangChain's time over the two floors'.
        ceiling_vs_langchain: kb ? round(langchain_s / (floor_s! + request_s!)) : null,
      };
      console.log(JSON.stringify(result));
      results.push(result);
    }
    await store.end();
    const out = path.join(root, 'bench-results', 'langchain-baseline.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
    console.log(`written to ${path.relative(process.cwd(), out)}`);
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The floor under kbchat's ingest: a table shaped as kbchat's index sees it (the vectors, an
 * HNSW index with the same settings as both pipelines'), which receives every kbchat upload's
 * own vectors, so it always holds what kbchat's table holds. Whatever else an ingest does,
 * inserting its vectors into the index costs at least this.
 */
async function createFloorTable(store: VectorStore): Promise<void> {
  await store.pool.query('drop table if exists floor_chunks');
  await store.pool.query(
    'create table floor_chunks (id bigserial primary key, embedding vector(1536) not null)',
  );
  await store.pool.query(
    'create index on floor_chunks using hnsw (embedding vector_cosine_ops) with (m = 16, ef_construction = 64)',
  );
}

/**
 * Seconds to insert a kbchat file's vectors into the floor table directly, in kbchat's batch
 * size (INGEST_CHUNKS_PER_STEP, 200) and its order: the same work as its index maintenance
 * with nothing in between (no extraction, chunking, embedding or workflow). Reading the
 * vectors back is not timed.
 */
async function indexFloor(store: VectorStore, fileId: string): Promise<number> {
  const { rows } = await store.pool.query<{ embedding: string }>(
    'select embedding::text as embedding from chunks where file_id = $1 order by id',
    [fileId],
  );
  const vectors = rows.map((row) => row.embedding);
  const t0 = performance.now();
  for (let i = 0; i < vectors.length; i += 200) {
    await store.pool.query(
      'insert into floor_chunks (embedding) select v::vector from unnest($1::text[]) v',
      [vectors.slice(i, i + 200)],
    );
  }
  return (performance.now() - t0) / 1000;
}

/**
 * Seconds for one authenticated request through the gateway to the knowledge worker and its
 * database (the file's status, which the ingest is followed with anyway), the best of five: no
 * upload can be answered faster.
 */
async function roundTrip(url: string, token: string): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    best = Math.min(best, performance.now() - t0);
  }
  return best / 1000;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

await main();
