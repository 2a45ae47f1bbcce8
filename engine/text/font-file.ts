/**
 * What a font file says about itself, read from its bytes before fontkit parses it: its format
 * (TrueType, OpenType with CFF outlines, or a collection of them), and for each face its names
 * (family and style), weight, slant, look, outlines and embedding permissions (OS/2 `fsType`).
 * Every offset is checked against the file, so that bytes which are not a font end as a null,
 * never as a read past the end.
 */

/** One face of a font file, as its tables describe it. */
export interface FaceFacts {
  /** Its place in a collection (0 for a single font). */
  index: number;
  /** The typographic family (name ID 16), else the family (name ID 1); null when the name table has neither. */
  family: string | null;
  /** The typographic subfamily (17), else the subfamily (2): `Bold Italic`, `Regular`. */
  style: string | null;
  /** The PostScript name (6), for messages. */
  postscriptName: string | null;
  /** OS/2 usWeightClass (100–900); 400 when the font has no OS/2 table. */
  weight: number;
  italic: boolean;
  /** OS/2 fsType; 0 (installable) when the font has no OS/2 table. */
  fsType: number;
  /** glyf, CFF or CFF2 outlines: what a PDF embeds. */
  outlines: boolean;
  /** Every glyph is drawn the same width (post.isFixedPitch). */
  fixedPitch: boolean;
  /** PANOSE serif style (byte 1 of the OS/2 panose) when the face is Latin text (byte 0 is 2), else 0. */
  serifStyle: number;
}

export type FontFormat = 'truetype' | 'opentype' | 'collection';

export interface FontFileFacts {
  format: FontFormat;
  faces: FaceFacts[];
}

/** What a file that is no TrueType or OpenType font is, when it is something known. */
export type OtherFormat = 'woff' | 'woff2' | 'other';

/** OS/2 fsType bits (OpenType spec, "OS/2 — fsType"). */
export const FS_TYPE = {
  /** Must not be modified, embedded or exchanged in any way without the legal owner's permission. */
  restricted: 0x0002,
  /** May be embedded for viewing and printing (documents embedding it are read-only). */
  previewAndPrint: 0x0004,
  /** May be embedded in documents that can be edited. */
  editable: 0x0008,
  /** May not be subset before embedding. */
  noSubsetting: 0x0100,
  /** Only the bitmaps it holds may be embedded, no outlines. */
  bitmapOnly: 0x0200,
} as const;

const TRUETYPE = 0x00010000;
const TRUE = 0x74727565; // 'true' (old Apple TrueType)
const OTTO = 0x4f54544f; // 'OTTO'
const TTCF = 0x74746366; // 'ttcf'
const WOFF = 0x774f4646; // 'wOFF'
const WOFF2 = 0x774f4632; // 'wOF2'
/** More faces than any real collection has (the largest CJK ones hold a few dozen). */
const MOST_FACES = 256;

/** The font's format and faces, or what the bytes are instead. */
export function readFontFile(bytes: Uint8Array): FontFileFacts | OtherFormat {
  if (bytes.length < 12) return 'other';
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = data.getUint32(0);
  if (tag === WOFF) return 'woff';
  if (tag === WOFF2) return 'woff2';
  if (tag === TTCF) {
    const count = data.getUint32(8);
    if (count === 0 || count > MOST_FACES || 12 + 4 * count > bytes.length) return 'other';
    const faces: FaceFacts[] = [];
    for (let index = 0; index < count; index++) {
      const face = readFace(data, data.getUint32(12 + 4 * index), index);
      if (face === null) return 'other';
      faces.push(face);
    }
    return { format: 'collection', faces };
  }
  if (tag !== TRUETYPE && tag !== TRUE && tag !== OTTO) return 'other';
  const face = readFace(data, 0, 0);
  return face === null ? 'other' : { format: tag === OTTO ? 'opentype' : 'truetype', faces: [face] };
}

/** The face whose table directory starts at `offset`, or null when the directory or a table it needs lies outside the file. */
function readFace(data: DataView, offset: number, index: number): FaceFacts | null {
  if (offset + 12 > data.byteLength) return null;
  const version = data.getUint32(offset);
  if (version !== TRUETYPE && version !== TRUE && version !== OTTO) return null;
  const count = data.getUint16(offset + 4);
  if (offset + 12 + 16 * count > data.byteLength) return null;
  const tables = new Map<string, DataView>();
  for (let i = 0; i < count; i++) {
    const record = offset + 12 + 16 * i;
    const tag = String.fromCharCode(data.getUint8(record), data.getUint8(record + 1), data.getUint8(record + 2), data.getUint8(record + 3));
    const start = data.getUint32(record + 8);
    const length = data.getUint32(record + 12);
    if (start + length > data.byteLength) return null;
    tables.set(tag, new DataView(data.buffer, data.byteOffset + start, length));
  }
  // A font every reader needs: the header, the character map and the metrics.
  if (!tables.has('head') || !tables.has('cmap') || !tables.has('hhea') || !tables.has('hmtx') || !tables.has('maxp')) return null;

  const os2 = tables.get('OS/2');
  const hasOs2 = os2 !== undefined && os2.byteLength >= 64;
  const head = tables.get('head')!;
  const post = tables.get('post');
  const fsSelection = hasOs2 ? os2.getUint16(62) : 0;
  const macStyle = head.byteLength >= 46 ? head.getUint16(44) : 0;
  const italicAngle = post && post.byteLength >= 8 ? post.getInt32(4) : 0;
  const names = readNames(tables.get('name'));
  const panoseFamily = hasOs2 ? os2.getUint8(32) : 0;
  return {
    index,
    family: names.get(16) ?? names.get(1) ?? null,
    style: names.get(17) ?? names.get(2) ?? null,
    postscriptName: names.get(6) ?? null,
    weight: hasOs2 ? clampWeight(os2.getUint16(4)) : macStyle & 1 ? 700 : 400,
    // fsSelection: italic (bit 0) or oblique (bit 9); else the header's macStyle, else a slanted post table.
    italic: hasOs2 ? (fsSelection & 0x0201) !== 0 : (macStyle & 2) !== 0 || italicAngle !== 0,
    fsType: hasOs2 ? os2.getUint16(8) : 0,
    outlines: tables.has('glyf') ? tables.has('loca') : tables.has('CFF ') || tables.has('CFF2'),
    fixedPitch: post !== undefined && post.byteLength >= 16 && post.getUint32(12) !== 0,
    serifStyle: panoseFamily === 2 ? os2!.getUint8(33) : 0,
  };
}

/** usWeightClass as CSS weights; a few old fonts wrote 1–9 for 100–900. */
function clampWeight(weight: number): number {
  if (weight >= 1 && weight <= 9) return weight * 100;
  return Math.min(1000, Math.max(1, weight || 400));
}

const WINDOWS = 3;
const WINDOWS_ENGLISH_US = 0x409;
const MACINTOSH = 1;
const UNICODE = 0;

/** Name records by ID: the US English Windows one, else any Windows one, else Unicode, else Roman Macintosh. */
function readNames(name: DataView | undefined): Map<number, string> {
  const found = new Map<number, { rank: number; text: string }>();
  if (!name || name.byteLength < 6) return new Map();
  const count = name.getUint16(2);
  const strings = name.getUint16(4);
  for (let i = 0; i < count; i++) {
    const record = 6 + i * 12;
    if (record + 12 > name.byteLength) break;
    const platform = name.getUint16(record);
    const encoding = name.getUint16(record + 2);
    const language = name.getUint16(record + 4);
    const id = name.getUint16(record + 6);
    const length = name.getUint16(record + 8);
    const start = strings + name.getUint16(record + 10);
    if (start + length > name.byteLength) continue;
    const rank =
      platform === WINDOWS && (encoding === 1 || encoding === 10)
        ? language === WINDOWS_ENGLISH_US
          ? 0
          : 1
        : platform === UNICODE
          ? 2
          : platform === MACINTOSH && encoding === 0 && language === 0
            ? 3
            : -1;
    if (rank < 0 || (found.get(id)?.rank ?? 9) <= rank) continue;
    const bytes = new Uint8Array(name.buffer, name.byteOffset + start, length);
    const text = new TextDecoder(rank === 3 ? 'latin1' : 'utf-16be')
      .decode(bytes)
      .replace(/\p{Cc}/gu, '')
      .trim();
    if (text !== '') found.set(id, { rank, text });
  }
  return new Map([...found].map(([id, { text }]) => [id, text]));
}
