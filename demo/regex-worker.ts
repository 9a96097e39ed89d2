// Runs regular-expression scans in a thread of their own, so that whoever started this worker can
// end a catastrophic match (`(a+)+$`) by terminating it.
import type { RegexScanRequest } from 'toolhost';
import { scanTexts } from './regex-scan.js';

self.addEventListener('message', (event: MessageEvent<RegexScanRequest & { id: number }>) => {
  const { id, source, flags, texts, maxMatchesPerText } = event.data;
  try {
    self.postMessage({ id, matches: scanTexts(source, flags, texts, maxMatchesPerText) });
  } catch (error) {
    self.postMessage({ id, error: (error as Error).message });
  }
});
