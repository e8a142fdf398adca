import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Application } from '../api/applications.ts';
import { Reply } from '../api/conversations.ts';
import { SearchResult } from '../api/search.ts';
import { Source } from '../api/sources.ts';

// The MCP tools of ckb, declared once for both transports: `ckb mcp` (stdio, through the HTTP client) and
// POST /mcp on the daemon (through its services). Each side supplies a KnowledgeBase; nothing here knows which.

export interface Call {
  signal: AbortSignal;
}

export const ADDABLE_SOURCE_TYPES = ['text', 'url', 'website', 'file'] as const;

export interface SourceToAdd {
  application_id: string;
  type: (typeof ADDABLE_SOURCE_TYPES)[number];
  name: string;
  content: string;
}

/** What the tools need from ckb: the API's operations, as each transport reaches them. */
export interface KnowledgeBase {
  listApplications(call: Call): Promise<Application[]>;
  getApplication(id: string, call: Call): Promise<Application>;
  listSources(applicationId: string, call: Call): Promise<Source[]>;
  getSource(id: string, call: Call): Promise<Source>;
  search(applicationId: string, input: { query: string; limit: number }, call: Call): Promise<SearchResult[]>;
  ask(
    input: { application_id: string; message: string; conversation_id?: string },
    call: Call,
  ): Promise<Reply>;
  /** For `file`, `content` is what this side accepts: a local path (stdio) or an uploaded file's id (HTTP), or a URL. */
  addSource(source: SourceToAdd, call: Call): Promise<Source>;
  /** The sentence a failed tool call shows: the API's message; a bug's details stay in the logs. */
  describeError(error: unknown): string;
}

/** An API error's message, naming the field at fault unless the message already starts with it. */
export function withParam(message: string, param: string | undefined): string {
  return param && !message.startsWith(param) ? `${message} (${param})` : message;
}

export interface ServerOptions {
  version: string;
  /** How `add_source` takes a file: by its path on this machine (stdio), or by URL or uploaded file id (HTTP). */
  files: 'local-path' | 'remote';
  /** How long `add_source` waits for ingestion to end before answering with the source's current status. */
  ingestionWaitMs?: number;
  /** How often `add_source` looks at the source while it waits. */
  pollIntervalMs?: number;
}

const INSTRUCTIONS = [
  "ckb is the user's own knowledge base: applications, each with sources (documents, web pages, text) that",
  'questions are answered from, with citations. Call list_applications first to find the application to use;',
  'then search for passages, or ask for a cited answer. add_source adds material to an application.',
].join(' ');

const ApplicationId = z
  .string()
  .min(1)
  .max(100)
  .describe('The id of a ckb application (app_…), as list_applications shows it');

const inputs = {
  list_sources: { application_id: ApplicationId },
  search: {
    application_id: ApplicationId,
    query: z.string().trim().min(1).max(32_000).describe('What to look for, in plain words or as a question'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(5)
      .describe('How many passages to return (1-50, default 5)'),
  },
  ask: {
    application_id: ApplicationId,
    question: z.string().trim().min(1).max(32_000).describe('The question, in plain language'),
    conversation_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'The conversation_id an earlier ask returned, to ask a follow-up question in that conversation',
      ),
  },
};

function addSourceInput(files: ServerOptions['files']) {
  const file =
    files === 'local-path'
      ? 'file: the absolute path of a file on this machine (.pdf .doc .docx .ppt .pptx .md .json .eml .html .txt), or the https URL of one'
      : 'file: the https URL of a file (.pdf .doc .docx .ppt .pptx .md .json .eml .html .txt), or the id (file_…) of a file uploaded through GET /files/presigned-url';
  return {
    application_id: ApplicationId,
    type: z
      .enum(ADDABLE_SOURCE_TYPES)
      .describe(
        'text: content is the text itself; url: content is one web page; website: content is the first page of a site to crawl; ' +
          file,
      ),
    content: z.string().trim().min(1).max(5_000_000).describe('The text, the URL or the file, as type says'),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "A short name that answers cite the source by; default: the file's name, the page address or the text's start",
      ),
  };
}

const outputs = {
  list_applications: { applications: z.array(Application) },
  list_sources: { sources: z.array(Source) },
  search: { results: z.array(SearchResult) },
  ask: Reply.shape,
  add_source: { source: Source },
};

/** A default name as the CLI gives one: the file's name, the page's host and path, or the text's start. */
export function defaultSourceName(type: SourceToAdd['type'], content: string): string {
  if (type === 'text') {
    const flat = content.replace(/\s+/g, ' ').trim();
    return flat.length <= 60 ? flat : `${flat.slice(0, 59)}…`;
  }
  if (/^https?:\/\//i.test(content)) {
    try {
      const { host, pathname } = new URL(content);
      if (type === 'file') return decodeURIComponent(pathname.split('/').pop() || host).slice(0, 200);
      return `${host}${pathname === '/' ? '' : pathname}`.slice(0, 200);
    } catch {
      return content.slice(0, 200);
    }
  }
  return (content.split(/[\\/]/).pop() || content).slice(0, 200);
}

function page(result: { source: string; page: number; score: number; url?: string | undefined }): string {
  const where = result.url ? ` ${result.url}` : '';
  return `${result.source}, page ${result.page} (score ${result.score.toFixed(2)})${where}`;
}

function statusOf(source: Source): string {
  if (source.embed_status === 'COMPLETED')
    return `COMPLETED, ${source.chunks} chunks from ${source.pages} pages`;
  if (source.embed_status === 'FAILED') return `FAILED: ${source.embed_status_message || 'no reason given'}`;
  return `${source.embed_status} (still being ingested; not searchable yet)`;
}

function describeSource(source: Source): string {
  return `- ${source.name} (id ${source.id}, ${source.type}): ${statusOf(source)}`;
}

export const render = {
  applications(applications: Application[]): string {
    if (applications.length === 0) {
      return 'There are no applications yet. Create one with `ckb app create --name NAME`, then add sources to it.';
    }
    const lines = applications.map((application) => {
      const about = application.description ? `: ${application.description}` : '';
      return `- ${application.name} (id ${application.id})${about}`;
    });
    return `${applications.length} application(s):\n${lines.join('\n')}`;
  },

  sources(sources: Source[]): string {
    if (sources.length === 0) return 'This application has no sources yet; add_source adds one.';
    return `${sources.length} source(s), newest first:\n${sources.map(describeSource).join('\n')}`;
  },

  search(results: SearchResult[]): string {
    if (results.length === 0) {
      return 'No passages found. The application may have no COMPLETED sources yet (list_sources shows them).';
    }
    return results
      .map((result, index) => `[${index + 1}] ${page(result)}\n${result.text.trim()}`)
      .join('\n\n');
  },

  reply(reply: Reply): string {
    const sources = reply.sources.length
      ? `\n\nSources:\n${reply.sources.map((source) => `- ${page(source)}`).join('\n')}`
      : '';
    return `${reply.message}${sources}\n\nconversation_id: ${reply.conversation_id} (pass it to ask a follow-up question)`;
  },

  added(source: Source): string {
    const next =
      source.embed_status === 'COMPLETED'
        ? 'It can be searched and asked about now.'
        : source.embed_status === 'FAILED'
          ? 'Nothing was added to the answers; fix the cause and add it again.'
          : 'It is still being ingested: list_sources shows when it is COMPLETED and searchable.';
    return `Added source ${source.name} (id ${source.id}) to application ${source.application_id}: ${statusOf(source)}. ${next}`;
  },
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Waits a while for ingestion to end, so the model learns at once whether the source is searchable or failed. */
async function settled(
  kb: KnowledgeBase,
  source: Source,
  options: { waitMs: number; pollMs: number; signal: AbortSignal },
): Promise<Source> {
  const deadline = Date.now() + options.waitMs;
  let current = source;
  while (current.embed_status === 'PENDING' || current.embed_status === 'PROCESSING') {
    if (Date.now() >= deadline) return current;
    await sleep(options.pollMs, options.signal);
    current = await kb.getSource(current.id, { signal: options.signal });
  }
  return current;
}

/** Lists hold `content: null`; a created source would echo all its text back, which no model needs. */
function withoutContent(source: Source): Source {
  return { ...source, content: null };
}

const APPLICATION_URI = 'ckb://applications/{application_id}';

/** An MCP server with ckb's tools and its applications as resources, answering through `kb`. */
export function createMcpServer(kb: KnowledgeBase, options: ServerOptions): McpServer {
  const server = new McpServer({ name: 'ckb', version: options.version }, { instructions: INSTRUCTIONS });

  /** Failures are results the model can read and act on, never protocol errors or a crashed server. */
  const run = async (work: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await work();
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: kb.describeError(error) }] };
    }
  };
  const result = (text: string, structured: Record<string, unknown>, isError = false): CallToolResult => ({
    content: [{ type: 'text', text }],
    structuredContent: structured,
    ...(isError ? { isError } : {}),
  });

  server.registerTool(
    'list_applications',
    {
      title: 'List knowledge bases',
      description:
        "Lists the user's ckb applications: each is a knowledge base of documents with an id (app_…) that the other tools take. Call this first to find which application holds the material a question is about.",
      outputSchema: outputs.list_applications,
      annotations: { readOnlyHint: true },
    },
    (extra) =>
      run(async () => {
        const applications = await kb.listApplications({ signal: extra.signal });
        return result(render.applications(applications), { applications });
      }),
  );

  server.registerTool(
    'list_sources',
    {
      title: "List an application's sources",
      description:
        'Lists the sources (documents, web pages, texts) of one application with their ingestion status: only COMPLETED sources are searched and answered from; FAILED ones say why.',
      inputSchema: inputs.list_sources,
      outputSchema: outputs.list_sources,
      annotations: { readOnlyHint: true },
    },
    (input, extra) =>
      run(async () => {
        const sources = await kb.listSources(input.application_id, { signal: extra.signal });
        return result(render.sources(sources), { sources });
      }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search an application',
      description:
        "Finds the passages of an application's documents that best match a query (hybrid keyword and semantic search), each with its source name, page, URL and a relevance score in [0, 1]. No language model is involved: use it to read the material yourself, or to check what an answer can rest on.",
      inputSchema: inputs.search,
      outputSchema: outputs.search,
      annotations: { readOnlyHint: true },
    },
    (input, extra) =>
      run(async () => {
        const results = await kb.search(
          input.application_id,
          { query: input.query, limit: input.limit },
          { signal: extra.signal },
        );
        return result(render.search(results), { results });
      }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask an application',
      description:
        "Answers a question from an application's documents, with the sources it cites (name, page, score), and returns a conversation_id: pass it back to ask a follow-up question that builds on the earlier ones. The turn is saved as a ckb conversation the user can see.",
      inputSchema: inputs.ask,
      outputSchema: outputs.ask,
    },
    (input, extra) =>
      run(async () => {
        const reply = await kb.ask(
          {
            application_id: input.application_id,
            message: input.question,
            ...(input.conversation_id ? { conversation_id: input.conversation_id } : {}),
          },
          { signal: extra.signal },
        );
        return result(render.reply(reply), reply);
      }),
  );

  server.registerTool(
    'add_source',
    {
      title: 'Add a source to an application',
      description:
        'Adds a source to an application: a text, a web page, a whole website (crawled) or a file. The source is ingested in the background; this waits a little for it and says whether it is searchable (COMPLETED), still being ingested, or FAILED and why.',
      inputSchema: addSourceInput(options.files),
      outputSchema: outputs.add_source,
    },
    (input, extra) =>
      run(async () => {
        const created = await kb.addSource(
          {
            application_id: input.application_id,
            type: input.type,
            content: input.content,
            name: input.name ?? defaultSourceName(input.type, input.content),
          },
          { signal: extra.signal },
        );
        const source = withoutContent(
          await settled(kb, created, {
            waitMs: options.ingestionWaitMs ?? 30_000,
            pollMs: options.pollIntervalMs ?? 250,
            signal: extra.signal,
          }),
        );
        return result(render.added(source), { source }, source.embed_status === 'FAILED');
      }),
  );

  server.registerResource(
    'application',
    new ResourceTemplate(APPLICATION_URI, {
      list: async (extra) => {
        const applications = await kb.listApplications({ signal: extra.signal });
        return {
          resources: applications.map((application) => ({
            uri: `ckb://applications/${application.id}`,
            name: application.name,
            description: application.description || `The ckb application ${application.name}`,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'A ckb application',
      description: 'An application (knowledge base) with its sources and their status, as JSON',
      mimeType: 'application/json',
    },
    async (uri, variables, extra) => {
      const id = String(variables['application_id']);
      try {
        const application = await kb.getApplication(id, { signal: extra.signal });
        const sources = await kb.listSources(id, { signal: extra.signal });
        const text = JSON.stringify({ application, sources }, null, 2);
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
      } catch (error) {
        throw new Error(kb.describeError(error));
      }
    },
  );

  return server;
}
