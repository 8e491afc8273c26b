/**
 * The wire contract of GET /api/documents/:id (src/server/api/documents.ts answers it): where a
 * document is, against where the boundary file puts it.
 * No Node imports, no DOM: the browser bundle imports it (through src/server/wire.ts).
 */

/** One copy of a document GET /api/documents/:id found: where the engine holds it. */
export interface DocumentCopy {
  /** The OpenSearch shard number that holds it (from the hit's `_shard`). */
  shard: number;
  /** The boundary file's name of that shard, or null when the file names no shard with that number. */
  name: string | null;
  /** The routing value it was written with (`_routing`), or null. */
  routing: string | null;
  /** Whether it is where the file places it: shard === file.shard. */
  agrees: boolean;
}

/** The 200 answer of GET /api/documents/:id: a document's location and where it is against where the boundary file puts it. */
export interface DocumentAnswer {
  status: 'found';
  index: string;
  id: string;
  /** The join kind (restaurant, dish) or null for an index without a join. */
  kind: string | null;
  /** The location the document is placed by (a dish: its restaurant's copy), degrees. */
  location: { lat: number; lng: number };
  /** Its level-10 token. */
  cell: string;
  /** The shard the boundary file names for that cell. */
  file: { name: string; shard: number };
  /** Every copy found (one, unless a move or a misrouted write left a second). */
  copies: DocumentCopy[];
  /** True when every copy is on the file's shard. */
  agrees: boolean;
}
