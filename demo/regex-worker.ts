// Runs regular-expression scans in a thread of their own, so that whoever started this worker can
// end a catastrophic match (`(a+)+$`) by terminating it.
import { scanRegexTexts, type RegexScanRequest } from 'toolhost';

self.addEventListener('message', (event: MessageEvent<RegexScanRequest & { id: number }>) => {
  const { id, source, flags, texts, maxMatchesPerText } = event.data;
  try {
    self.postMessage({ id, matches: scanRegexTexts(source, flags, texts, maxMatchesPerText, Infinity) });
  } catch (error) {
    self.postMessage({ id, error: (error as Error).message });
  }
});
