import { filesBucket, getObject, putObject } from '../../platform/blob';
import { keys, type UploadRecord } from '../upload';
import type { LookupOrigin } from '../../classification';

// A chunk's paid answers, kept as they arrive so that no lookup is paid twice: a killed, timed-out
// or retried ClassifyChunk resumes from them. Each write is a small part holding only the answers
// since the previous write (chunks/<n>.checkpoint/<seq>.json, numbered on); at the end of an
// invocation the parts are folded into chunks/<n>.checkpoint.json, which says from which part on to
// read. Parts are written one after another, and a failed write stops every later one, so the
// parts on record never have a gap.

/** A number's answer as the chunk's result holds it. */
export interface ChunkAnswer {
  key: string;
  answerIntent: string;
  identity: string | null;
  simulated: boolean;
  /** Why the provider could not look this number up (it is Unknown); the upload's failed share counts these. */
  lookupError?: string;
  /** Paid lookup or cache (Finalize sums them into the upload); absent when free. */
  origin?: LookupOrigin;
}

type Upload = Pick<UploadRecord, 'organization_id' | 'id'>;
/** An answer and its item's place in the chunk. */
export type Entry = [index: number, answer: ChunkAnswer];

interface Folded {
  next_part: number;
  answers: Entry[];
}

export interface ChunkCheckpoint {
  /** Answers on record, by item index. */
  readonly answers: ReadonlyMap<number, ChunkAnswer>;
  /** Records `entries`; resolves once they (and every entry recorded before) are stored. */
  record(entries: Entry[]): Promise<void>;
  /** Folds the parts into one object, so the next invocation reads one object. */
  fold(): Promise<void>;
  /** Parts written by this invocation. */
  readonly writes: number;
}

/** Parts read at once when resuming. */
const READ_AHEAD = 8;

export async function openCheckpoint(upload: Upload, chunk: number): Promise<ChunkCheckpoint> {
  const bucket = filesBucket();
  const answers = new Map<number, ChunkAnswer>();
  const folded = await getObject(bucket, keys.chunkCheckpoint(upload, chunk));
  const base = folded ? (JSON.parse(folded.toString('utf8')) as Folded) : { next_part: 0, answers: [] };
  for (const [i, a] of base.answers) answers.set(i, a);
  let nextPart = base.next_part;
  // The parts written after the last fold (by an invocation that was killed or timed out).
  for (;;) {
    const batch = await Promise.all(Array.from({ length: READ_AHEAD }, (_, i) => getObject(bucket, keys.chunkCheckpointPart(upload, chunk, nextPart + i))));
    const present = batch.findIndex((b) => b === null);
    for (const bytes of present === -1 ? batch : batch.slice(0, present)) {
      for (const [i, a] of JSON.parse(bytes!.toString('utf8')) as Entry[]) answers.set(i, a);
      nextPart++;
    }
    if (present !== -1) break;
  }

  let pending: Entry[] = [];
  let scheduled = false;
  let broken: unknown = null;
  let tail: Promise<void> = Promise.resolve();
  let writes = 0;
  const writeNext = async (): Promise<void> => {
    scheduled = false;
    if (broken) throw broken;
    const entries = pending;
    pending = [];
    if (!entries.length) return;
    try {
      await putObject(bucket, keys.chunkCheckpointPart(upload, chunk, nextPart), JSON.stringify(entries), 'application/json');
    } catch (error) {
      broken = error;
      throw error;
    }
    nextPart++;
    writes++;
  };

  return {
    answers,
    get writes() {
      return writes;
    },
    record(entries) {
      for (const [i, a] of entries) answers.set(i, a);
      pending.push(...entries);
      // Entries recorded while a write is in flight go together in the next one.
      if (!scheduled) {
        scheduled = true;
        tail = tail.then(writeNext, writeNext);
      }
      return tail;
    },
    async fold() {
      await tail.catch(() => undefined);
      if (broken) throw broken;
      const body: Folded = { next_part: nextPart, answers: [...answers] };
      await putObject(bucket, keys.chunkCheckpoint(upload, chunk), JSON.stringify(body), 'application/json');
    },
  };
}
