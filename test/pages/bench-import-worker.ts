// Import bench worker: seeds a new IndexedDB workspace with the files the page sends (createWebPlatform's
// `files`, one transaction), as an app's import of a folder or zip into its workspace worker does.
import { expose } from 'comlink';
import { createWebPlatform } from '../../web/index.js';

expose({
  ping: (): number => 1,
  async seed(workspace: string, files: Record<string, Uint8Array>): Promise<number> {
    const platform = createWebPlatform({ workspace, files });
    await platform.ready();
    const count = (await platform.fs.readdir('/workspace')).length;
    await platform.dispose();
    return count;
  },
});
