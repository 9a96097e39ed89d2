/** One request a {@link captureFetch} fetch received: its URL, headers and parsed JSON body. */
export interface CapturedRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A `fetch` that records each request and answers every one with `status` and `body` as JSON. */
export function captureFetch(status: number, body: unknown): typeof fetch & { requests: CapturedRequest[] } {
  const requests: CapturedRequest[] = [];
  const fn = (async (url: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(url), headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify(body), { status });
  }) as typeof fetch & { requests: CapturedRequest[] };
  fn.requests = requests;
  return fn;
}
