import type { LedgerSummary } from '@app/api/bench';
import { readDatabaseComment, writeDatabaseComment } from './database';
import type { GenerationReport } from './programme';

/** A generated programme and how its generation went, kept as the bench database's comment. */
export interface SavedProgramme extends GenerationReport {
  invariants: LedgerSummary & { seconds: number };
  databaseBytes: number;
  totalSeconds: number;
}

export function saveProgramme(url: string, saved: SavedProgramme): Promise<void> {
  return writeDatabaseComment(url, saved);
}

export async function loadProgramme(url: string): Promise<SavedProgramme> {
  const saved = (await readDatabaseComment(url).catch(() => undefined)) as
    SavedProgramme | undefined;
  if (!saved?.info?.bigCompany) {
    throw new Error(`No generated programme in ${url}: run \`npm run bench:data\` first.`);
  }
  return saved;
}
