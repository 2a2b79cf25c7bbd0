import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { tempDir } from './temp-dirs';

/** The repository's stage files, in a copy whose key files (operators' own, not in the repository) are made here. */
export function repositoryStages(): { root: string; stages: string[] } {
  const root = tempDir('pvs-names-');
  mkdirSync(join(root, 'config', 'stages'), { recursive: true });
  const stages: string[] = [];
  for (const file of readdirSync(join(process.cwd(), 'config', 'stages')).filter((f) => f.endsWith('.json')).sort()) {
    copyFileSync(join(process.cwd(), 'config', 'stages', file), join(root, 'config', 'stages', file));
    stages.push(file.replace(/\.json$/, ''));
  }
  const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  for (const stage of stages) {
    const keyFile = (JSON.parse(readFileSync(join(root, 'config', 'stages', `${stage}.json`), 'utf8')) as { downloadsPublicKeyFile?: string }).downloadsPublicKeyFile;
    if (keyFile && !isAbsolute(keyFile)) {
      mkdirSync(dirname(join(root, keyFile)), { recursive: true });
      writeFileSync(join(root, keyFile), publicKey);
    }
  }
  return { root, stages };
}

