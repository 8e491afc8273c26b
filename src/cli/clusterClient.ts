/**
 * clusterClient makes a command's OpenSearch client from the environment (OPENSEARCH_URL, its
 * credentials and CA: cluster/clientConfig.ts). A bad environment (an unreadable CA file, a URL
 * that is not one, half a set of credentials) is the command's error, "geoshard <command>: …",
 * with `exitCode` (1 unless said). The client's modules load on first use, so a command that
 * never reaches the cluster (--help, --print) does not load them.
 */
import type { OpenSearchClient } from '../cluster/client.ts';
import { CliError } from './io.ts';

export async function clusterClient(command: string, opts: { env?: NodeJS.ProcessEnv; exitCode?: number } = {}): Promise<OpenSearchClient> {
  const [{ OpenSearchClient }, { configFromEnv }] = await Promise.all([import('../cluster/client.ts'), import('../cluster/clientConfig.ts')]);
  try {
    return new OpenSearchClient(configFromEnv(opts.env));
  } catch (e) {
    throw new CliError(`geoshard ${command}: ${(e as Error).message}`, opts.exitCode ?? 1);
  }
}
