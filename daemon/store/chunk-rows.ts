import {
  Field,
  FixedSizeList,
  Float32,
  Int32,
  List,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
} from 'apache-arrow';
import { utf8Column, utf8ListColumn } from './utf8-column.ts';

/** A chunk as stored: its text and place in the source, whose source it is, and the attempt that wrote it. */
export interface ChunkRecord {
  sourceId: string;
  applicationId: string;
  accountId: string;
  generation: number;
  /** 0-based position within the source. */
  index: number;
  page: number;
  text: string;
  /** Heading path above the chunk, outermost first. */
  headings: string[];
  url?: string | undefined;
  /** What full-text search indexes: the text with its headings as context. */
  searchText: string;
}

export function chunkSchema(dimensions: number): Schema {
  return new Schema([
    new Field('accountId', new Utf8(), false),
    new Field('applicationId', new Utf8(), false),
    new Field('sourceId', new Utf8(), false),
    new Field('chunkIndex', new Int32(), false),
    new Field('page', new Int32(), false),
    new Field('text', new Utf8(), false),
    new Field('headings', new List(new Field('item', new Utf8(), true)), false),
    new Field('url', new Utf8(), true),
    new Field('searchText', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
    // Nullable and last, as in tables from before generations, where it was added to the existing rows.
    new Field('generation', new Int32(), true),
  ]);
}

/**
 * Builds the Arrow batch LanceDB writes, column by column: all vectors go into one Float32Array, where rows of
 * JS objects with number arrays cost LanceDB a conversion per value (most of an add's time).
 */
export function chunkRows(schema: Schema, records: ChunkRecord[], vectors: Float32Array[]): Table {
  const length = records.length;
  const vectorType = schema.fields.find((field) => field.name === 'vector')!.type as FixedSizeList;
  const dimensions = vectorType.listSize;
  const values = new Float32Array(length * dimensions);
  vectors.forEach((vector, position) => {
    values.set(vector, position * dimensions);
  });
  const strings = (read: (record: ChunkRecord) => string | null) => utf8Column(records.map(read));
  const integers = (read: (record: ChunkRecord) => number) =>
    makeData({ type: new Int32(), length, data: Int32Array.from(records, read) });
  const children = [
    strings((record) => record.accountId),
    strings((record) => record.applicationId),
    strings((record) => record.sourceId),
    integers((record) => record.index),
    integers((record) => record.page),
    strings((record) => record.text),
    utf8ListColumn(
      records.map((record) => record.headings),
      schema.fields[6]!.type as List<Utf8>,
    ),
    strings((record) => record.url ?? null),
    strings((record) => record.searchText),
    makeData({
      type: vectorType,
      length,
      nullCount: 0,
      child: makeData({ type: new Float32(), length: length * dimensions, data: values }),
    }),
    integers((record) => record.generation),
  ];
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, children }));
  return new Table(schema, [batch]);
}
