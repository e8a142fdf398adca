/**
 * Offline answers on real documents: the shared corpus's good files (all ten formats) uploaded to one
 * application through the daemon, as a new user would, and asked the questions of bench/corpus-questions.json
 * (written for this benchmark). No weight was fitted to them, but the failures seen on the first 34 guided later
 * changes to the responder; those marked `fresh` were written after its last change and guided nothing, so they
 * are reported apart too. Those marked `probe` (50, written on 2026-11-28 trying ckb as a new user) are counted in
 * and reported apart, and so are the others. A reply is right when it holds the question's fact; its first source is right when it
 * is the file named. Every `[n]` of every reply must name one of its sources. Requests for an overview of a file
 * ("Tell me about BlogCFC") and questions what something or who someone is ("What is Mammoth?") are counted
 * apart from the questions of fact the targets are about: they were written with the changes that answer them.
 *
 *   node bench/corpus-answers.ts        writes bench/results/corpus-answers.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isNotFound } from '../daemon/respond/offline.ts';
import { requireCorpus } from '../test/support/corpus.ts';
import { citationsAreValid } from './responder.ts';
import { type BenchServer, median, percentile, round, startServer } from './support.ts';

interface CorpusQuestion {
  file: string;
  question: string;
  facts: string[];
  /** Earlier user turns of the same conversation. */
  after?: string[];
  /** Written after the responder's last change: never looked at while changing it. */
  fresh?: boolean;
  /** Written while trying ckb as a new user would (2026-11-28); its failures guided that day's changes. */
  probe?: boolean;
  /** A request for an overview of the file: its opening holds the fact. */
  overview?: boolean;
  /** A question what something or who someone is: the sentence defining it holds the fact. */
  definition?: boolean;
}

/** What a question asks for, which decides the figure it counts in. */
type Asked = 'fact' | 'overview' | 'definition';

function asked(item: CorpusQuestion): Asked {
  if (item.overview) return 'overview';
  return item.definition ? 'definition' : 'fact';
}

interface Reply {
  conversation_id: string;
  message: string;
  sources: { source: string; page: number; score: number }[];
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

async function upload(daemon: BenchServer, application: string, path: string): Promise<string> {
  const presigned = await daemon.call(
    'GET',
    `/files/presigned-url?name=${encodeURIComponent(basename(path))}`,
  );
  const response = await fetch(presigned.presigned_url, { method: 'PUT', body: readFileSync(path) });
  if (!response.ok) throw new Error(`upload of ${path}: ${response.status}`);
  const source = await daemon.call('POST', '/sources', {
    application_id: application,
    name: basename(path),
    type: 'file',
    content: presigned.file_id,
  });
  return source.id;
}

async function waitCompleted(daemon: BenchServer, application: string): Promise<void> {
  for (;;) {
    const sources = await daemon.call('GET', `/applications/${application}/sources`);
    const pending = sources.filter(
      (source: { embed_status: string }) => !['COMPLETED', 'FAILED'].includes(source.embed_status),
    );
    if (pending.length === 0) {
      const failed = sources.filter((source: { embed_status: string }) => source.embed_status === 'FAILED');
      if (failed.length > 0) throw new Error(`sources failed: ${failed.map((source: any) => source.name)}`);
      return;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const files = join(requireCorpus(), 'files');
  const manifest = JSON.parse(readFileSync(join(files, 'MANIFEST.json'), 'utf8')) as {
    path: string;
    kind: string;
  }[];
  const { questions } = JSON.parse(
    readFileSync(resolve(import.meta.dirname, 'corpus-questions.json'), 'utf8'),
  ) as { questions: CorpusQuestion[] };
  const daemon = await startServer('daemon');
  try {
    const application = (await daemon.call('POST', '/applications', { name: 'corpus' })).id;
    for (const entry of manifest.filter((item) => item.kind === 'good')) {
      await upload(daemon, application, join(files, entry.path));
    }
    await waitCompleted(daemon, application);

    const results: {
      question: string;
      fresh: boolean;
      probe: boolean;
      asked: Asked;
      file: string;
      factHeld: boolean;
      firstSourceRight: boolean;
      citationsValid: boolean;
      firstSource: string | null;
      reply: string;
    }[] = [];
    const turns: number[] = [];
    for (const item of questions) {
      let conversation: string | undefined;
      for (const earlier of item.after ?? []) {
        conversation = (
          await daemon.call('POST', '/conversations', {
            ...(conversation ? { conversation_id: conversation } : { application_id: application }),
            message: earlier,
          })
        ).conversation_id;
      }
      const started = performance.now();
      const reply: Reply = await daemon.call('POST', '/conversations', {
        ...(conversation ? { conversation_id: conversation } : { application_id: application }),
        message: item.question,
      });
      turns.push(performance.now() - started);
      results.push({
        question: item.question,
        fresh: item.fresh === true,
        probe: item.probe === true,
        asked: asked(item),
        file: item.file,
        // A reply that could not find the answer may quote the nearest sentence; it answered nothing.
        factHeld:
          !isNotFound(reply.message) &&
          item.facts.some((fact) => normalise(reply.message).includes(normalise(fact))),
        firstSourceRight: reply.sources[0]?.source === basename(item.file),
        citationsValid: citationsAreValid(reply.message, reply.sources.length),
        firstSource: reply.sources[0]?.source ?? null,
        reply: reply.message,
      });
    }
    const facts = results.filter((result) => result.asked === 'fact');
    const share = (key: 'factHeld' | 'firstSourceRight' | 'citationsValid', among = facts) =>
      round(among.filter((result) => result[key]).length / among.length, 3);
    const fresh = facts.filter((result) => result.fresh);
    const probes = facts.filter((result) => result.probe);
    const others = facts.filter((result) => !result.probe);
    const overviews = results.filter((result) => result.asked === 'overview');
    const definitions = results.filter((result) => result.asked === 'definition');
    const figures = {
      questions: facts.length,
      files: manifest.filter((item) => item.kind === 'good').length,
      factHeld: share('factHeld'),
      firstSourceRight: share('firstSourceRight'),
      citationsValid: share('citationsValid', results),
      fresh: {
        questions: fresh.length,
        factHeld: share('factHeld', fresh),
        firstSourceRight: share('firstSourceRight', fresh),
      },
      probes: {
        questions: probes.length,
        factHeld: share('factHeld', probes),
        firstSourceRight: share('firstSourceRight', probes),
      },
      otherThanProbes: {
        questions: others.length,
        factHeld: share('factHeld', others),
        firstSourceRight: share('firstSourceRight', others),
      },
      overviews: {
        questions: overviews.length,
        factHeld: share('factHeld', overviews),
        firstSourceRight: share('firstSourceRight', overviews),
      },
      definitions: {
        questions: definitions.length,
        factHeld: share('factHeld', definitions),
        firstSourceRight: share('firstSourceRight', definitions),
      },
      turnMilliseconds: { p50: round(median(turns), 1), p95: round(percentile(turns, 95), 1) },
      targets: { factHeld: '>= 0.90', firstSourceRight: '>= 0.95', citationsValid: '1' },
      misses: results.filter((result) => !result.factHeld || !result.firstSourceRight),
    };
    const output = resolve(import.meta.dirname, 'results');
    mkdirSync(output, { recursive: true });
    writeFileSync(resolve(output, 'corpus-answers.json'), `${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  } finally {
    await daemon.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
