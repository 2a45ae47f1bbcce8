/**
 * Code run inside a network namespace made for it (`unshare -n`, root only): only loopback is up,
 * so nothing can leave the machine, and a connection to any other address fails inside connect()
 * itself — at once, with an errno chosen by the routes set here. The code is a module's export,
 * called in a child process; what it returns comes back as JSON.
 */
import { execFileSync, spawn } from 'node:child_process';

/** Public addresses whose connect() fails synchronously in the namespace, by the errno it fails with. */
export const FAILING_ADDRESSES = {
  /** No route at all: the ordinary state of a deployment without outbound access. */
  ENETUNREACH: '93.184.216.34',
  /** A `prohibit` route, as a firewall's reject policy answers. */
  EACCES: '93.184.217.34',
  /** An `unreachable` route. */
  EHOSTUNREACH: '93.184.218.34',
} as const;

const SETUP = ['ip link set lo up', 'ip route add prohibit 93.184.217.0/24', 'ip route add unreachable 93.184.218.0/24'].join(' && ');

/** Why no namespace can be made here (a reason to skip, with the message), or undefined when one can. */
export function freshNetnsRefusal(): string | undefined {
  try {
    execFileSync('unshare', ['-n', 'sh', '-c', SETUP], { stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    return `a network namespace cannot be made here (unshare -n needs root): ${said}`;
  }
}

/**
 * Calls `name` exported by `module` in a Node process inside a fresh namespace and resolves with
 * what it returned. Rejects, with the process's stderr, when it exits without answering.
 */
export function runInFreshNetns<T>(module: URL, name: string): Promise<T> {
  const call = `const m = await import(${JSON.stringify(module.href)}); process.stdout.write(JSON.stringify(await m[${JSON.stringify(name)}]()));`;
  const child = spawn('unshare', ['-n', 'sh', '-c', `${SETUP} && exec "$@"`, 'fresh-netns', process.execPath, '--input-type=module', '-e', call], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0 && stdout !== '') resolve(JSON.parse(stdout) as T);
      else reject(new Error(`the process in the namespace ended (${code ?? signal}) without answering:\n${stderr}`));
    });
  });
}
