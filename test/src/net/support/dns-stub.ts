/**
 * A DNS server on loopback for tests: answers A queries from a table, so that no test ever asks
 * a real resolver. A name may also answer SERVFAIL, or never answer at all.
 */
import { createSocket, type Socket } from 'node:dgram';

export type DnsAnswer = string[] | 'servfail' | 'silent';

export interface DnsStub {
  /** `127.0.0.1:<port>`, for `dnsServers` / QUIRE_NET_DNS_SERVERS. */
  server: string;
  /** Names asked, lower-case, in order (every query type). */
  queries: string[];
  close(): Promise<void>;
}

const TYPE_A = 1;

export async function startDnsStub(records: Record<string, DnsAnswer>): Promise<DnsStub> {
  const table = new Map(Object.entries(records).map(([name, answer]) => [name.toLowerCase(), answer]));
  const socket: Socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message, peer) => {
    const question = readQuestion(message);
    if (!question) return;
    queries.push(question.name);
    const answer = table.get(question.name);
    if (answer === 'silent') return;
    const reply =
      answer === undefined
        ? respond(message, question, 3, [])
        : answer === 'servfail'
          ? respond(message, question, 2, [])
          : respond(message, question, 0, question.type === TYPE_A ? answer : []);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

interface Question {
  name: string;
  type: number;
  /** Offset just past the question, where answers start. */
  end: number;
}

function readQuestion(message: Buffer): Question | undefined {
  if (message.length < 12 || message.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length && message[offset] !== 0) {
    const length = message[offset]!;
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += 1 + length;
  }
  offset += 1;
  if (offset + 4 > message.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset), end: offset + 4 };
}

/** The query's header and question, then one A record per address. */
function respond(query: Buffer, question: Question, rcode: number, addresses: string[]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  const recursionDesired = query.readUInt16BE(2) & 0x0100;
  header.writeUInt16BE(0x8000 | 0x0400 | recursionDesired | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const answers = addresses.map((address) => {
    const record = Buffer.alloc(16);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(TYPE_A, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(4, 10);
    address.split('.').forEach((part, i) => record.writeUInt8(Number(part), 12 + i));
    return record;
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}
