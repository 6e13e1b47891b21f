// autocannon 9 ships no types (and @types/autocannon is not a dependency): the part bench/http.ts and bench/write-path.ts use.
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** seconds */
      duration?: number;
      headers?: Record<string, string>;
      method?: string;
      body?: string;
      /** A sequence each connection sends in turn (bench/write-path.ts), with a context object per connection. */
      requests?: RequestStep[];
    }
    interface RequestStep {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: { method?: string; path?: string; body?: string; headers?: Record<string, string> }, context: Record<string, unknown>) => unknown;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      total: number;
    }
    interface Result {
      requests: Histogram;
      /** milliseconds */
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      /** answers 300–399 (304s of bench/published-site.ts's revalidation) */
      '3xx': number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
