/**
 * The documented defaults of real retry libraries, brokers and proxies, as retry layers.
 *
 * Each preset says which version its values are from and where they were read (the source
 * file or documentation page), and, in `notes`, what the simulator cannot express or
 * approximates. Conventions of the mapping:
 *  - maxAttempts counts the first try: a library's "retries: 2" is maxAttempts 3.
 *  - timeout is set only when the library has a default per-try timeout; deadline only when
 *    it has a default overall one.
 *  - retryOn lists what the library retries by default: 'timeout' and 'reset' for timeouts and
 *    connection failures/resets, status codes or '5xx'/'4xx' for answers. Libraries that retry
 *    on exceptions (resilience4j, Polly, queues, Celery) retry whatever the caller turns into an
 *    exception; those presets assume an HTTP client that throws on non-2xx answers and retry
 *    '5xx' and '4xx' with `retryable: 'ignore'` (they cannot see a "do not retry" mark).
 *  - Durations are seconds; Infinity means none.
 *  - Where a library's retry behaviour changed from one release to the next, `releases` gives
 *    the values of each release line of PRESET_RELEASES (preset-names.ts), oldest first, over
 *    the common `layer`; `preset: name` is the current release, `preset: name@version` the
 *    line that version falls in.
 * docs/presets.md has a table per preset and the table of changes by version.
 */
import type { Preset } from './layer-spec.js';
import type { PresetName } from '../../scenario/preset-names.js';

/** The simulator's largest maxAttempts (LIMITS.maxAttempts): "no fixed count", for libraries limited only by a budget. */
const NO_FIXED_COUNT = 1000;

/**
 * gRPC has no default retry policy, so the three gRPC presets take the example of gRFC A6
 * itself (the same retryPolicy and retryThrottling in grpc-java, grpc-go and grpc-js): these
 * are its values, and what the simulator makes of them.
 */
const GRFC_A6_EXAMPLE_NOTES =
  'gRPC has no default retry policy: an RPC is retried only if the service config has a retryPolicy. These are the ' +
  'values of the gRFC\'s own example: maxAttempts 4, initialBackoff 0.1s, maxBackoff 1s, backoffMultiplier 2, ' +
  'retryableStatusCodes [UNAVAILABLE]; retryThrottling maxTokens 10, tokenRatio 0.1. UNAVAILABLE stands for 503 and for ' +
  'broken connections (reset); DEADLINE_EXCEEDED is not retried and the call deadline spans all attempts (no ' +
  'per-attempt timeout, no default deadline). Throttling: a success adds 0.1 token, and only a failure with a status ' +
  'the policy retries takes one (a 400, a 429 or a timeout does not); retries stop while tokens <= 5. Server pushback ' +
  '(grpc-retry-pushback-ms) is modelled as Retry-After and waited exactly; a negative pushback (do not retry) is not ' +
  'modelled, nor is the reset of the backoff to initialBackoff after a pushback. maxAttempts above 5 is treated as 5 by ' +
  'clients. Transparent retries (RPCs that never left the client) are not modelled.';

const GRFC_A6_EXAMPLE_LAYER: Preset['layer'] = {
  maxAttempts: 4,
  backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 1 },
  retryOn: ['reset', 503],
  retryAfter: { mode: 'exact' },
  budget: { kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 },
};

export const PRESETS: Record<PresetName, Preset> = {
  got: {
    library: 'got (Node.js HTTP client)',
    version: '14.4.7 (the same retry rules read again in 16.1.0)',
    source:
      'got@14.4.7 and got@16.1.0 from the npm registry: dist/source/core/calculate-retry-delay.js (lines 14-21 in 14.4.7, ' +
      '14-19 in 16.1.0: a Retry-After is the wait itself, or no retry when it exceeds computedValue), ' +
      'dist/source/core/index.js (line 234 in 14.4.7, 379 in 16.1.0: computedValue = maxRetryAfter ?? timeout.request ?? ' +
      'Infinity), dist/source/core/options.js (lines 82-118 in 14.4.7: the retry defaults); ' +
      'https://github.com/sindresorhus/got/blob/main/documentation/7-retry.md (retry defaults) and ' +
      'https://github.com/sindresorhus/got/blob/main/source/core/calculate-retry-delay.ts (delay formula, Retry-After); ' +
      'the same formula is in got@11.8.2 (npm) dist/source/core/calculate-retry-delay.js lines 26-27',
    notes:
      'retry.limit 2 (3 attempts); only GET, PUT, HEAD, DELETE, OPTIONS, TRACE are retried (not POST). ' +
      'Delay = 1000ms * 2^(n-1) + uniform(0, noise=100ms), backoffLimit Infinity: the additive 0-100ms noise is ' +
      'approximated by proportional jitter ±5% (same 100ms spread at the first retry, 1.0-1.1s in got vs 0.95-1.05s here; ' +
      'the spread grows with the wait here but stays 100ms in got). 413 is retried only when it carries Retry-After. ' +
      'With Retry-After, got waits exactly that long (not the backoff, not the larger of the two), or does not retry when it ' +
      'exceeds maxRetryAfter, which defaults to timeout.request (none by default): retryAfter exact with max none; if you set ' +
      'a timeout, set retryAfter.max to the same value to mirror got. Error codes retried: ETIMEDOUT, ECONNRESET, EADDRINUSE, ECONNREFUSED, EPIPE, ENOTFOUND, ' +
      'ENETUNREACH, EAI_AGAIN. got has no default timeout. 16.1.0 also retries the QUERY method.',
    layer: {
      maxAttempts: 3,
      backoff: { kind: 'exponential', base: 1, multiplier: 2, max: Infinity, jitter: 'proportional', jitterFactor: 0.05 },
      retryOn: ['timeout', 'reset', 408, 413, 429, 500, 502, 503, 504, 521, 522, 524],
      retryAfter: { mode: 'exact', max: Infinity },
    },
  },

  'axios-retry': {
    library: 'axios-retry (plugin for axios)',
    version: '4.5.0',
    source:
      'https://github.com/softonic/axios-retry/blob/master/src/index.ts (DEFAULT_OPTIONS, isNetworkOrIdempotentRequestError, ' +
      'isRetryableError, noDelay); 429 and Retry-After support: https://github.com/softonic/axios-retry/pull/270 (released in 4.2.0); ' +
      'axios-retry@4.0.0, 4.1.0, 4.2.0 and 4.5.0 from the npm registry, dist/esm/index.js (isRetryableError, retryAfter, noDelay)',
    notes:
      'retries 3 (4 attempts). Default retryCondition isNetworkOrIdempotentRequestError: network errors (no response, ' +
      'code not ECONNABORTED/ERR_CANCELED, is-retry-allowed) on any method, 5xx and 429 only on GET, HEAD, OPTIONS, PUT, ' +
      'DELETE. Timeouts (ECONNABORTED) are not retried. Default retryDelay is noDelay: retry at once, or after exactly the ' +
      'Retry-After value when the answer has one (no cap). axios sets no timeout by default; with a timeout and ' +
      'shouldResetTimeout false (default), the timeout spans all attempts (a deadline, not a per-try timeout). ' +
      'Versions before 4.2.0 did not retry 429 or read Retry-After. noDelay waits the Retry-After itself; with ' +
      'exponentialDelay it is max(backoff, Retry-After): honour gives both.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'none' },
    },
    releases: [
      {
        versions: '4.0.0 to 4.1.x',
        source: 'axios-retry@4.0.0 and 4.1.0 (npm), dist/esm/index.js lines 20-23: isRetryableError is "no response, or 500-599"',
        notes: '429 is not retried and Retry-After is not read.',
        layer: { retryOn: ['reset', '5xx'], retryAfter: { mode: 'ignore' } },
      },
      {
        versions: '4.2.0 and later (read at 4.5.0, the current release)',
        source:
          'axios-retry@4.2.0 (npm) dist/esm/index.js lines 20-25 (status 429 added), 43-58 (retryAfter, noDelay), the same ' +
          'lines in 4.5.0; PR #270',
        notes: '429 is retried; noDelay waits the Retry-After.',
        layer: { retryOn: ['reset', '5xx', 429], retryAfter: { mode: 'honour' } },
      },
    ],
  },

  urllib3: {
    library: 'urllib3 (Python HTTP client)',
    version: '2.6.3',
    source:
      'https://github.com/urllib3/urllib3/blob/main/src/urllib3/util/retry.py (Retry.__init__ defaults, Retry.DEFAULT = Retry(3), ' +
      'RETRY_AFTER_STATUS_CODES, DEFAULT_RETRY_AFTER_MAX, is_retry, get_backoff_time, sleep, sleep_for_retry); ' +
      'urllib3 1.26.12 as Debian ships it (python3-urllib3 1.26.12-1+deb12u4, whose security patches shift the lines of the ' +
      'PyPI release by 2) urllib3/util/retry.py lines 406-411 (sleep_for_retry sleeps exactly the Retry-After), 622 ' +
      '(Retry.DEFAULT = Retry(3)); retry_after_max: https://github.com/urllib3/urllib3/pull/3743',
    notes:
      'Retry.DEFAULT is Retry(3): total 3 (4 attempts); the Retry() constructor default is total 10. status_forcelist ' +
      'None: no status is retried on its own; 413, 429 and 503 are retried only when they carry a Retry-After header ' +
      '(respect_retry_after_header True), and the wait is then the header value itself (sleep_for_retry, not the backoff), ' +
      'capped at retry_after_max (21600 s, 6 h) from 2.6.3 and uncapped before. The simulator cannot make a retry depend on the header, so those statuses are left ' +
      'out of retryOn: add them (retryOn: [timeout, reset, 413, 429, 503]) when the server sends Retry-After. Connect errors ' +
      'are retried on any method, read errors (read timeouts, resets while reading) only on HEAD, GET, PUT, DELETE, ' +
      'OPTIONS, TRACE. backoff_factor 0: no wait (with a factor, the first retry is still immediate and later ones wait ' +
      'factor * 2^(n-1), capped at backoff_max 120 s; exponential here cannot make the first retry immediate). ' +
      'requests\' HTTPAdapter uses max_retries 0 instead (no retries). No default timeout.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'none' },
      retryOn: ['timeout', 'reset'],
    },
    releases: [
      {
        versions: '1.26.0 to 2.6.2 (read at 1.26.12)',
        source: 'urllib3 1.26.12 (Debian python3-urllib3 1.26.12-1+deb12u4) urllib3/util/retry.py lines 406-411 (sleep_for_retry: time.sleep(retry_after))',
        notes: 'The Retry-After is waited in full, however long.',
        layer: { retryAfter: { mode: 'exact', cap: Infinity } },
      },
      {
        versions: '2.6.3 and later',
        source: 'https://github.com/urllib3/urllib3/pull/3743 (retry_after_max, DEFAULT_RETRY_AFTER_MAX 6 h), released in 2.6.3',
        notes: 'A Retry-After above retry_after_max (6 h) is cut to 6 h.',
        layer: { retryAfter: { mode: 'exact', cap: 21600 } },
      },
    ],
  },

  'go-retryablehttp': {
    library: 'hashicorp/go-retryablehttp',
    version: '0.7.7',
    source:
      'https://github.com/hashicorp/go-retryablehttp/blob/v0.7.7/client.go (defaultRetryWaitMin 1s, defaultRetryWaitMax 30s, ' +
      'defaultRetryMax 4, baseRetryPolicy, DefaultBackoff, parseRetryAfterHeader)',
    notes:
      'RetryMax 4 (5 attempts). DefaultBackoff waits RetryWaitMin * 2^(n-1) = 1, 2, 4, 8 s, capped at 30 s, no jitter. ' +
      'Retries every transport error (except too many redirects, bad scheme, invalid header, TLS certificate errors), ' +
      '429, and status 0 or >= 500 except 501 (501 is inside \'5xx\' here). A context deadline or cancellation is not ' +
      'retried; http.Client.Timeout errors are. For 429 and 503 with Retry-After, DefaultBackoff returns the header value ' +
      'itself instead of the backoff, not capped by RetryWaitMax (retryAfter exact). The default client (go-cleanhttp pooled) has no overall timeout. Read from a vendored ' +
      'copy of client.go matching v0.7.7 (PrepareRetry, isCertError), not from the tag itself.',
    layer: {
      maxAttempts: 5,
      backoff: { kind: 'exponential', base: 1, multiplier: 2, max: 30, jitter: 'none' },
      retryOn: ['timeout', 'reset', '5xx', 429],
      retryAfter: { mode: 'exact' },
    },
  },

  okhttp: {
    library: 'OkHttp (JVM/Android HTTP client)',
    version: '5.1.0',
    source:
      'https://github.com/square/okhttp/blob/master/okhttp/src/main/kotlin/okhttp3/internal/http/RetryAndFollowUpInterceptor.kt ' +
      '(recover, isRecoverable, followUpRequest); timeouts: https://square.github.io/okhttp/5.x/okhttp/okhttp3/-ok-http-client/-builder/read-timeout.html ' +
      'and .../call-timeout.html',
    notes:
      'No application-level retries: retryOnConnectionFailure (default true) recovers connection failures (connect ' +
      'errors, resets, refused streams) on another route or a fresh connection, as long as routes remain; the count is ' +
      'bounded by routes, not a number, so maxAttempts 2 stands for "one recovery". Read timeouts after the request was ' +
      'sent are not retried (SocketTimeoutException is recoverable only before sending). 408 is retried once, unless it ' +
      'carries Retry-After > 0; 503 is retried once only with "Retry-After: 0" (not expressible: left out). No backoff. ' +
      'readTimeout, connectTimeout and writeTimeout default to 10 s each, callTimeout to none: the 10 s read timeout is ' +
      'the per-try timeout here. Read at a master-branch commit (04de4cb4) of the 5.x line, not at the 5.1.0 tag.',
    layer: {
      maxAttempts: 2,
      timeout: 10,
      backoff: { kind: 'none' },
      retryOn: ['reset', 408],
    },
  },

  grpc: {
    library: 'gRPC client retries with retryThrottling (service config), as gRFC A6 specifies them; gRPC C-core',
    version: 'gRFC A6 as updated on 2024-08-29 (grpc/proposal PR #452, merged that day)',
    source:
      'https://github.com/grpc/proposal/blob/master/A6-client-retries.md (example retryPolicy and retryThrottling; ' +
      '"Exponential Backoff": min(initialBackoff*backoffMultiplier**(n-1), maxBackoff) * random(0.8, 1.2); "Throttling ' +
      'Retry Attempts and Hedged RPCs": only failures with a retryable status count; "Pushback": retry after exactly that ' +
      'delay); https://github.com/grpc/proposal/pull/452 (the backoff change)',
    notes:
      GRFC_A6_EXAMPLE_NOTES +
      ' The jitter multiplies the capped wait, so a wait may reach 1.2 × maxBackoff. C-core (and the languages that wrap ' +
      'it) follows this; for grpc-java, grpc-go and grpc-js use their own presets, whose jitter depends on the release.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 },
      retryOn: ['reset', 503],
      retryAfter: { mode: 'exact' },
      budget: { kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 },
    },
  },

  'grpc-java': {
    library: 'grpc-java client retries (RetriableStream) with the gRFC A6 example retryPolicy and retryThrottling',
    version: '1.82 (current release line)',
    source:
      'https://github.com/grpc/grpc-java/blob/master/core/src/main/java/io/grpc/internal/RetriableStream.java ' +
      '(makeRetryDecision: the throttle is charged only "if (isRetryableStatusCode || pushback < 0)"; pushback is waited ' +
      'as is; Throttle.onQualifiedFailureThenCheckIsAboveThreshold, onSuccess); jitter: PR #11858 and PR #12639',
    notes:
      GRFC_A6_EXAMPLE_NOTES +
      ' grpc-java also retries after a pushback when the status is not retryable (not modelled). No flag or setting ' +
      'brings back the full jitter in 1.71 and later (none is in grpc-java\'s code; GRPC_EXPERIMENTAL_RETRY_JITTER was ' +
      'only a suggestion in the review of PR #11858).',
    layer: GRFC_A6_EXAMPLE_LAYER,
    releases: [
      {
        versions: 'before 1.71.0',
        source: 'RetriableStream.java makeRetryDecision before PR #11858: backoffNanos = nextBackoffIntervalNanos * random.nextDouble()',
        notes: 'Full jitter: uniform(0, min(initialBackoff * 2^(n-1), maxBackoff)), the gRFC as written in 2017.',
        layer: { backoff: { jitter: 'full' } },
      },
      {
        versions: '1.71.0 to 1.79.x',
        source: 'https://github.com/grpc/grpc-java/pull/11858 (merged 2025-01, first released in 1.71.0); PR #12639 ("the range is [0.4, 1.2] in code")',
        notes: 'The wait is multiplied by uniform(0.4, 1.2): the intended 0.8-1.2 range was implemented wider.',
        layer: { backoff: { jitter: 'scaled', jitterMin: 0.4, jitterMax: 1.2 } },
      },
      {
        versions: '1.80.0 and later',
        source: 'https://github.com/grpc/grpc-java/pull/12639 (merged in the 1.80 development cycle, released in 1.80.0)',
        notes: 'The wait is multiplied by uniform(0.8, 1.2), as gRFC A6 specifies.',
        layer: { backoff: { jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 } },
      },
    ],
  },

  'grpc-go': {
    library: 'grpc-go client retries (clientStream / csAttempt.shouldRetry) with the gRFC A6 example retryPolicy and retryThrottling',
    version: '1.69.0 and later (current release line)',
    source:
      'https://github.com/grpc/grpc-go/blob/master/stream.go (csAttempt.shouldRetry: "we count this as a failure only if ' +
      'the code matched a retryable code"; cur *= 0.8 + 0.4*rand.Float64(); pushback waited as is); jitter: ' +
      'https://github.com/grpc/grpc-go/pull/7869 (release notes of 1.69.0)',
    notes: GRFC_A6_EXAMPLE_NOTES,
    layer: GRFC_A6_EXAMPLE_LAYER,
    releases: [
      {
        versions: 'before 1.69.0',
        source: 'stream.go shouldRetry before PR #7869: dur = time.Duration(grpcrand.Int63n(int64(cur)))',
        notes: 'Full jitter: uniform(0, min(initialBackoff * 2^(n-1), maxBackoff)).',
        layer: { backoff: { jitter: 'full' } },
      },
      {
        versions: '1.69.0 and later',
        source: 'https://github.com/grpc/grpc-go/pull/7869 (stream: add jitter to retry backoff in accordance with gRFC A6)',
        notes: 'The wait is multiplied by uniform(0.8, 1.2).',
        layer: { backoff: { jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 } },
      },
    ],
  },

  'grpc-js': {
    library: 'grpc-js (@grpc/grpc-js, Node.js) client retries (RetryingCall) with the gRFC A6 example retryPolicy and retryThrottling',
    version: '1.14.7',
    source:
      '@grpc/grpc-js@1.13.4, 1.13.7, 1.14.0, 1.14.3 and 1.14.7 from the npm registry, build/src/retrying-call.js ' +
      '(1.14.7: line 322 jitter Math.random() * (1.2 - 0.8) + 0.8; lines 396 and 426 addCallFailed only for retryable or ' +
      'non-fatal codes; 470 addCallSucceeded on OK; 355 pushback waited as is); https://github.com/grpc/grpc-node/issues/2959',
    notes:
      GRFC_A6_EXAMPLE_NOTES +
      ' grpc-js checks the throttle when the backoff timer fires rather than when the failure arrives (here: when it arrives).',
    layer: GRFC_A6_EXAMPLE_LAYER,
    releases: [
      {
        versions: 'before 1.14.0 (and the 1.13.x patch releases, read up to 1.13.7)',
        source: '@grpc/grpc-js@1.13.4 and 1.13.7 build/src/retrying-call.js line 301: Math.random() * this.nextRetryBackoffSec * 1000',
        notes: 'Full jitter: uniform(0, min(initialBackoff * 2^(n-1), maxBackoff)).',
        layer: { backoff: { jitter: 'full' } },
      },
      {
        versions: '1.14.0 and later',
        source:
          '@grpc/grpc-js@1.14.0 and 1.14.3 build/src/retrying-call.js line 297, 1.14.7 line 322 (getNextRetryJitter: ' +
          'Math.random() * (1.2 - 0.8) + 0.8)',
        notes: 'The wait is multiplied by uniform(0.8, 1.2).',
        layer: { backoff: { jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 } },
      },
    ],
  },

  'aws-sdk-js-v3': {
    library: 'AWS SDK for JavaScript v3, standard retry mode (@smithy/util-retry StandardRetryStrategy)',
    version: '3.1175.0 (current release; @smithy/core 3.41 with the 2026 retry defaults)',
    source:
      'Packages from the npm registry: @aws-sdk/util-retry 3.338.0 and 3.341.0, @smithy/util-retry 4.2.13 and 4.3.0, ' +
      '@smithy/middleware-retry 4.4.46 and 4.5.0, @smithy/core 3.39.0, 3.40.0 and 3.41.1 (dist-es/**/StandardRetryStrategy.js, ' +
      'retries-2026-config.js, retryMiddleware.js, parseRetryAfterHeader.js, service-error-classification/constants.js), and the ' +
      'dependencies of @aws-sdk/client-s3 3.338.0, 3.341.0, 3.723.0, 3.1025.0, 3.1026.0, 3.1164.0, 3.1166.0; ' +
      'https://github.com/aws/aws-sdk-js-v3/issues/8037 (2026 retry defaults); ' +
      'https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html',
    notes:
      'maxAttempts 3. Wait = random() * min(base * 2^(n-1), 20 s) (full jitter); throttling errors (429 and throttling error ' +
      'codes) use a longer base (500 ms, 1 s with the 2026 defaults), which one backoff per layer cannot express. Retried: ' +
      'TRANSIENT errors (TimeoutError, RequestTimeout, ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT, network errors, 500, 502, ' +
      '503, 504) and THROTTLING (429, ThrottlingException and other codes, which services often send as 400). Other 5xx are ' +
      'not retried. Quota per SDK client: 500; a retry after a transient error costs transientCost, after throttling 5; a ' +
      'success refunds its retry\'s cost, or 1 for a first try. What changed by release (see releases and docs/presets.md): ' +
      'the attempts (4 before 3.362.0), whether the quota is shared at all (a strategy per request before ' +
      '@smithy/middleware-retry 4.4.41), the refill (Math.max before @smithy/util-retry 4.3.0), Retry-After, the transient ' +
      'cost and the base. Clients from 3.723.0 declare caret ranges on @smithy/*, so installing one today (or updating its ' +
      'lockfile) resolves the newest packages: aws-sdk-js-v3@version means that, the current behaviour; ' +
      'aws-sdk-js-v3@version+locked means the packages of its day. Check `npm ls @smithy/middleware-retry @smithy/core`. ' +
      'The server here sends Retry-After in seconds. Default request timeouts of the Node handler: none assumed. ' +
      'DynamoDB (4 attempts, 25 ms base in 2026) and long-polling operations are not modelled.',
    layer: {
      maxAttempts: 3,
      backoff: { kind: 'exponential', multiplier: 2, max: 20, jitter: 'full' },
      retryOn: ['timeout', 'reset', 429, 500, 502, 503, 504],
    },
    releases: [
      {
        versions: '3.341.0 to 3.361.x (@aws-sdk/middleware-retry and @aws-sdk/util-retry 3.341 to 3.357, pinned by the client)',
        source:
          '@aws-sdk/middleware-retry 3.341.0 dist-es/configurations.js lines 34 and 42 (retryStrategy: async () => ... new ' +
          'StandardRetryStrategy(maxAttempts): a strategy, and so a quota, per request); @aws-sdk/util-retry 3.341.0, 3.347.0 and ' +
          '3.357.0 dist-es/StandardRetryStrategy.js line 54 (attempts = tokenToRenew.getRetryCount(), without the + 1 fixed in ' +
          '3.362.0); defaultRetryToken.js line 4 (an HTTP-date Retry-After capped at MAXIMUM_RETRY_DELAY, 20 s). Measured: ' +
          '@aws-sdk/client-sts 3.341.0, 3.350.0 and 3.360.0 installed 2026-12-07, 30 requests all answered 503: 4 attempts each, 120',
        notes:
          '4 attempts, not 3: the retry count is compared with maxAttempts without counting the first try. The default ' +
          'strategy is built anew for every request, so each starts with a fresh quota of 500 and the quota never stops a ' +
          'retry (a strategy instance passed in by the user is shared: aws-sdk-js-v3#4754). A numeric Retry-After is read as ' +
          'a 1970 date and so ignored; an HTTP-date one is waited, at most 20 s (the server here sends seconds).',
        layer: {
          maxAttempts: 4,
          backoff: { base: 0.1 },
          retryAfter: { mode: 'ignore' },
        },
      },
      {
        versions: '3.362.0 to 3.1008.x as locked in their day (+locked from 3.723.0; @smithy/middleware-retry up to 4.4.40)',
        source:
          '@aws-sdk/util-retry 3.362.0 dist-es/StandardRetryStrategy.js line 54 (attempts = getRetryCount() + 1); ' +
          '@smithy/middleware-retry 4.4.40 dist-es/configurations.js lines 33 and 41 (a strategy per request; memoised from 4.4.41, smithy-typescript PR #1916, 2026-03-12). Measured: ' +
          '@aws-sdk/client-sts 3.362.0 and 3.600.0 installed 2026-12-07 (they pin or sit on @smithy major lines whose newest ' +
          'releases are not memoised), 30 requests all answered 503: 3 attempts each, 90',
        notes:
          '3 attempts, and no quota in effect: the strategy, and its quota of 500, is built anew for every request. Retry-After ' +
          'as in the line before. Clients from 3.723.0 declare caret ranges: installed today they resolve the newest @smithy ' +
          'packages and behave as the current release; +locked gives this line for 3.723.0 to 3.1008.x.',
        layer: {
          backoff: { base: 0.1 },
          retryAfter: { mode: 'ignore' },
        },
      },
      {
        versions: '3.1009.0 to 3.1025.x as locked in their day (+locked; @smithy/middleware-retry 4.4.42 to 4.4.x, @smithy/util-retry 4.2.x)',
        source:
          '@smithy/util-retry 4.2.13 dist-es/StandardRetryStrategy.js line 41 (recordSuccess: Math.max(INITIAL_RETRY_TOKENS, ...)), ' +
          'lines 27-29 (retryDelay = max(retryAfterHint - now, backoff)), line 62 (TRANSIENT costs TIMEOUT_RETRY_COST 10, else ' +
          'RETRY_COST 5); @aws-sdk/util-retry 3.341.0 dist-es/StandardRetryStrategy.js line 39 (the same Math.max, from ' +
          'https://github.com/aws/aws-sdk-js-v3/pull/4755, May 2023); @smithy/middleware-retry 4.4.46 dist-es/retryMiddleware.js ' +
          'lines 100-111 (getRetryAfterHint: a number of seconds becomes new Date(seconds * 1000))',
        notes:
          'One quota per client (the memoised strategy; @aws-sdk/client-s3 3.1009.0 is the first to require ' +
          '@smithy/middleware-retry ^4.4.42). A success sets the quota to max(500, quota + refund): after any success it is ' +
          'at least 500, and each success without retry adds 1 above it, without limit. A long-lived client banks one token ' +
          'per success, so it keeps making 3 attempts per action through long outages, and partial success refills it at ' +
          'once. A numeric Retry-After is read as a 1970 date and so ignored (an HTTP-date one gives max(Retry-After, ' +
          'backoff), at most 20 s; the server here sends seconds).',
        layer: {
          backoff: { base: 0.1 },
          retryAfter: { mode: 'ignore' },
          budget: { kind: 'aws-quota', capacity: 500, transientCost: 10, throttlingCost: 5, successRefund: 1, refill: 'floor' },
        },
      },
      {
        versions: '3.1026.0 to 3.1165.x as locked in their day (+locked; @smithy/util-retry 4.3.0 and later, @smithy/middleware-retry 4.5.0 and later, @smithy/core < 3.40)',
        source:
          '@smithy/util-retry 4.3.0 dist-es/StandardRetryStrategy.js line 54 (Math.min), lines 39-41 (max(backoff, ' +
          'min(retryAfter, backoff + 5_000))), line 75 and retries-2026-config.js (costs 10 and 5 unless SMITHY_NEW_RETRIES_2026); ' +
          '@smithy/middleware-retry 4.5.0 dist-es/parseRetryAfterHeader.js (seconds, HTTP-date, x-amz-retry-after in ms); ' +
          'smithy-typescript commit cffd868, PR #1922, released 2026-04-06; @aws-sdk/client-s3 3.1026.0 is the first client to require them',
        notes:
          'A success sets the quota to min(500, quota + refund), as specified. Retry-After (and x-amz-retry-after) is honoured ' +
          'up to 5 s past the backoff. The 2026 defaults could be switched on with AWS_NEW_RETRIES_2026=true, which @aws-sdk/core ' +
          'reads from 3.974.3 on (dist-es/submodules/client/setFeature.js line 2).',
        layer: {
          backoff: { base: 0.1 },
          retryAfter: { mode: 'bounded', bound: 5 },
          budget: { kind: 'aws-quota', capacity: 500, transientCost: 10, throttlingCost: 5, successRefund: 1, refill: 'capped' },
        },
      },
      {
        versions: '3.1166.0 and later, and every client from 3.723.0 installed today (@smithy/core 3.40.0 and later: the 2026 retry defaults)',
        source:
          '@smithy/core 3.40.0 and 3.41.1 dist-es/submodules/retry/util-retry/retries-2026-config.js (v2026 = true: delay 50, ' +
          'throttlingDelay 1000, cost 14, throttlingCost 5) and StandardRetryStrategy.js line 67 (Math.min), lines 46-47 ' +
          '(Retry-After bound); @aws-sdk/client-s3 3.1166.0 requires @smithy/core ^3.40.0 (3.1164.0: ^3.38.0); ' +
          'https://github.com/aws/aws-sdk-js-v3/issues/8037. Measured: @aws-sdk/client-sts 3.723.0, 3.1008.0, 3.1009.0, 3.1025.0, ' +
          '3.1026.0 and 3.1178.0 installed 2026-12-07 (@smithy/core 3.41.1, @smithy/middleware-retry 4.8.2): 30 requests all ' +
          'answered 503 through one client make 65 attempts (17 x 3, 2, then 1 each: 35 retries at 14 from 500)',
        notes: 'Base 50 ms (throttling 1 s), a transient retry costs 14, a throttling retry 5. Every client release from 3.723.0, installed today, resolves these packages: aws-sdk-js-v3@3.800 is this line; aws-sdk-js-v3@3.800+locked the line of its day.',
        layer: {
          backoff: { base: 0.05 },
          retryAfter: { mode: 'bounded', bound: 5 },
          budget: { kind: 'aws-quota', capacity: 500, transientCost: 14, throttlingCost: 5, successRefund: 1, refill: 'capped' },
        },
      },
    ],
  },

  envoy: {
    library: 'Envoy proxy, route retry policy and cluster circuit breaker',
    version: '1.39.0',
    source:
      'https://www.envoyproxy.io/docs/envoy/v1.39.0/configuration/http/http_filters/router_filter (x-envoy-max-retries, ' +
      'x-envoy-retry-on, back-off algorithm), https://www.envoyproxy.io/docs/envoy/v1.39.0/api-v3/config/core/v3/backoff.proto ' +
      '(max_interval 10x base), https://www.envoyproxy.io/docs/envoy/v1.39.0/api-v3/config/cluster/v3/circuit_breaker.proto ' +
      '(max_retries 3), route_components.proto RetryPolicy (num_retries 1, per_try_timeout) and RouteAction.timeout (15 s)',
    notes:
      'Envoy retries nothing unless a retry policy (or x-envoy-retry-on) is set, and retry_on has no default: this preset ' +
      'uses retry_on "5xx" (any 5xx, resets, connect failures, refused streams, per-try timeouts). num_retries defaults ' +
      'to 1 (2 attempts). Back-off is fully jittered: retry n waits uniform(0, (2^n - 1) * 25 ms), capped at 250 ms ' +
      '(10x the base); here uniform(0, 25 ms * 2^(n-1)): the same for the first retry (0-25 ms), 0-50 vs 0-75 ms for the ' +
      'second, 0-100 vs 0-175 ms for the third. No per_try_timeout by default: the route timeout (15 s, the deadline ' +
      'here) spans all attempts and a request that times out is not retried. Retry-After is used only with ' +
      'rate_limited_retry_back_off configured (not by default). Budget: the cluster circuit breaker max_retries (3 ' +
      'concurrent retries) applies by default; a retry_budget (budget_percent 20%, min_retry_concurrency 3 when set) ' +
      'replaces it only when configured. The breaker counts per cluster per Envoy: set budget.scope to population for a ' +
      'shared edge proxy, keep client for a sidecar per client.',
    layer: {
      maxAttempts: 2,
      deadline: 15,
      backoff: { kind: 'exponential', base: 0.025, multiplier: 2, max: 0.25, jitter: 'full' },
      retryOn: ['timeout', 'reset', '5xx'],
      budget: { kind: 'envoy-max-retries', maxRetries: 3 },
    },
  },

  finagle: {
    library: 'Finagle (Twitter) client requeues with the default RetryBudget',
    version: '24.2.0',
    source:
      'https://github.com/twitter/finagle/blob/develop/finagle-core/src/main/scala/com/twitter/finagle/service/RetryBudget.scala ' +
      '(RetryBudget(): ttl 10 s, minRetriesPerSec 10, percentCanRetry 0.2; balance = tokenBucket.count / withdrawalAmount), ' +
      '.../service/Retries.scala (Budget.default with Backoff.const(Duration.Zero), MaxRequeuesPerReq 0.2, Effort 25, ' +
      'RetryPolicy.Never), .../service/RequeueFilter.scala (apply: maxRetries = ceil(maxRetriesPerReq * balance) when the ' +
      'request starts; lines 155-166: retryBudget.deposit() in respond, only when the response classifier says Successful; ' +
      'line 101: no requeue while the service is not Open), finagle-base-http/.../Http.scala line 110 (the HTTP client installs ' +
      'HttpResponseClassifier.ServerErrorsAsFailures unless the flag serverErrorsAsFailures is false)',
    notes:
      'By default Finagle retries only requeueable failures (RetryableWriteException: the request was never written, e.g. ' +
      'connection refused, and server NACKs), with no application-level RetryPolicy (RetryPolicy.Never) and no wait ' +
      '(Backoff.const(0)). Per request it allows ceil(0.2 * balance) requeues, the balance read when the request starts ' +
      '(20 at the 100-token reserve, more when traffic has funded the budget): there is no fixed count, so maxAttempts is ' +
      'the simulator\'s limit and the budget decides. A request deposits into the budget once, when it ends with a ' +
      'successful response: for the HTTP client\'s default classifier, an answer below 500 (a 5xx, a timeout or a connection ' +
      'failure is a failure), so in a storm the server\'s 503s stop funding retries. Not modelled: no requeue while the ' +
      'service is not Open (a closed or draining connection pool). NACKs (a Finagle server refusing work, sent over HTTP as a 503 with a nack ' +
      'header) are not modelled: add 503 to retryOn to stand for them. Not modelled either: up to 25 further requeues of a ' +
      'connection failure while acquiring a connection (Retries.Effort), which take nothing from the budget. Read on the ' +
      'develop branch, not at the 24.2.0 tag.',
    layer: {
      maxAttempts: NO_FIXED_COUNT,
      backoff: { kind: 'none' },
      retryOn: ['reset'],
      budget: { kind: 'finagle', ttl: 10, minRetriesPerSec: 10, percentCanRetry: 0.2, deposit: 'success', perRequest: 0.2 },
    },
  },

  resilience4j: {
    library: 'Resilience4j Retry and CircuitBreaker (ofDefaults)',
    version: '2.3.0',
    source:
      'https://github.com/resilience4j/resilience4j/blob/master/resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java ' +
      '(DEFAULT_MAX_ATTEMPTS 3, DEFAULT_WAIT_DURATION 500, constant interval, retry on every exception) and ' +
      '.../resilience4j-circuitbreaker/src/main/java/io/github/resilience4j/circuitbreaker/CircuitBreakerConfig.java ' +
      '(failure rate 50%, COUNT_BASED window 100, minimumNumberOfCalls 100, wait in open state 60 s, 10 calls half-open)',
    notes:
      'Retry: maxAttempts 3 (the first call included), fixed 500 ms wait, every exception retried (no result-based ' +
      'retry). Answers are retried only if the HTTP client throws on them (RestTemplate, WebClient.retrieve do for 4xx ' +
      'and 5xx): this preset assumes it does, hence 4xx and retryable: ignore. No per-try timeout (TimeLimiter is a ' +
      'separate module). CircuitBreaker: opens at 50% failures over the last 100 calls once 100 are recorded, stays open ' +
      '60 s, allows 10 calls half-open; calls are refused with CallNotPermittedException (fail). Order: the layer asks ' +
      'the breaker before each try (Retry around CircuitBreaker, the usual decoration) but does not retry a try the ' +
      'breaker refused, as if CallNotPermittedException were in ignoreExceptions; with the defaults, resilience4j\'s Retry ' +
      'retries it too (3 tries 500 ms apart, each refused at once while open): a second more before the call fails, and no ' +
      'load on the service. Not modelled: ' +
      'slow-call threshold (100% of calls slower than 60 s), and automaticTransitionFromOpenToHalfOpenEnabled false ' +
      '(half-open starts at the first call after 60 s rather than at 60 s). Read on the master branch.',
    layer: {
      maxAttempts: 3,
      backoff: { kind: 'constant', base: 0.5, max: Infinity, jitter: 'none' },
      retryOn: ['timeout', 'reset', '5xx', '4xx'],
      retryable: 'ignore',
      breaker: {
        window: { calls: 100 },
        failureRateThreshold: 0.5,
        minimumCalls: 100,
        openFor: 60,
        halfOpenCalls: 10,
        whenOpen: 'fail',
      },
    },
  },

  polly: {
    library: 'Polly v8 retry strategy (Polly.Core RetryStrategyOptions) around HttpClient calls',
    version: 'Polly.Core 8.5.2',
    source:
      'https://www.pollydocs.org/strategies/retry#defaults and https://www.pollydocs.org/api/Polly.Retry.RetryStrategyOptions-1.html ' +
      '(MaxRetryAttempts 3, Delay 2 s, BackoffType Constant, UseJitter false, MaxDelay null, ShouldHandle: any exception ' +
      'except OperationCanceledException); src/Polly.Core/Retry/RetryConstants.cs; ' +
      'https://learn.microsoft.com/dotnet/api/system.net.http.httpclient.timeout ("The default value is 100,000 milliseconds")',
    notes:
      'MaxRetryAttempts 3 (4 attempts), constant 2 s, no jitter. ShouldHandle retries every exception except ' +
      'OperationCanceledException, and no result: HttpClient answers are retried only if the caller throws on them ' +
      '(EnsureSuccessStatusCode, GetStringAsync), assumed here, hence 4xx and retryable: ignore. Each try is one HttpClient ' +
      'call, bounded by HttpClient.Timeout (100 s by default): the per-try timeout here. It throws TaskCanceledException ' +
      '(an OperationCanceledException), so timeouts are NOT retried by default. For Polly around something else, set ' +
      'timeout: none. No ' +
      'Retry-After handling in Polly.Core. With BackoffType Exponential and UseJitter true, Polly v8 uses the ' +
      'DecorrelatedJitterBackoffV2 algorithm of Polly.Contrib.WaitAndRetry, with Delay as the median first wait: ' +
      'backoff {kind: exponential, jitter: decorrelated-v2, base: 2s}. This is Polly v8 (Polly.Core), not the v7 ' +
      'WaitAndRetry policies nor the Microsoft.Extensions.Http.Resilience standard pipeline, whose defaults differ ' +
      '(those were not verified here). Values read on pollydocs.org (current 8.x docs), not at the 8.5.2 tag.',
    layer: {
      maxAttempts: 4,
      timeout: 100,
      backoff: { kind: 'constant', base: 2, max: Infinity, jitter: 'none' },
      retryOn: ['reset', '5xx', '4xx'],
      retryable: 'ignore',
    },
  },

  sqs: {
    library: 'Amazon SQS redelivery with a redrive policy (dead-letter queue)',
    version: 'Amazon SQS API 2012-11-05',
    source:
      'https://docs.aws.amazon.com/cli/v1/reference/sqs/change-message-visibility.html ("The default visibility timeout for a ' +
      'message is 30 seconds ... The maximum is 12 hours"), CreateQueue attributes as documented in the AWS SDK for Ruby ' +
      '(https://www.rubydoc.info/gems/aws-sdk-sqs/1.10.0/Aws/SQS/Resource: MessageRetentionPeriod default 4 days, ' +
      'RedrivePolicy maxReceiveCount), https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html',
    notes:
      'A received message that is not deleted becomes visible again when its visibility timeout (default 30 s) ' +
      'expires, and is received again: that timeout is both the per-try timeout and the wait before redelivery ' +
      '(backoff kind visibility). maxReceiveCount has no API default (it is required in a RedrivePolicy, 1-1000); 10 is ' +
      'used here as the value commonly documented as the console\'s pre-filled "Maximum receives" (not verified: the ' +
      'console page read does not show it; AWS recommends at least 5 for Lambda sources). After the 10th receive the ' +
      'message goes to the dead-letter queue. Any consumer failure that does not delete the message is redelivered: ' +
      'timeout, reset, 5xx and 4xx with retryable: ignore. Without a redrive policy, messages are redelivered until the ' +
      'retention period (default 4 days) ends. Redelivery order, ReceiveMessage long polling and ' +
      'ChangeMessageVisibility are not modelled.',
    layer: {
      maxAttempts: 10,
      timeout: 30,
      backoff: { kind: 'visibility', base: 30, max: 43200, jitter: 'none' },
      retryOn: ['timeout', 'reset', '5xx', '4xx'],
      retryable: 'ignore',
      deadLetter: true,
    },
  },

  'rabbitmq-quorum': {
    library: 'RabbitMQ quorum queue, consumer nack with requeue',
    version: '4.0.1',
    source:
      'https://www.rabbitmq.com/docs/4.0/quorum-queues#poison-message-handling (rabbitmq-website ' +
      'versioned_docs/version-4.0/quorum-queues/index.md: "Starting with RabbitMQ 4.0, the delivery limit for quorum ' +
      'queues defaults to 20"), https://www.rabbitmq.com/docs/consumers#acknowledgement-timeout (30 minutes)',
    notes:
      'A message redelivered more times than the delivery limit (20) is dropped, or dead-lettered if a dead-letter ' +
      'exchange is configured: 1 delivery + 20 redeliveries = maxAttempts 21. deadLetter is false because no DLX is ' +
      'configured by default (messages are dropped); set deadLetter: true when the queue has one. With a delivery limit ' +
      'set, a nacked message goes back near the head of the queue: redelivered at once (backoff none). The consumer ' +
      'acknowledgement timeout (30 min) is the per-try timeout. Every failure the consumer nacks with requeue is ' +
      'retried (timeout, reset, 5xx, 4xx, retryable: ignore). RabbitMQ 4.3 changed this: nack with requeue no longer ' +
      'advances the delivery count (basic.reject does), consumer timeouts do not count, and quorum queues can delay ' +
      'redeliveries; 3.13 and earlier had no default limit. So the preset covers 4.0.0 up to 4.3.0 and refuses other versions.',
    layer: {
      maxAttempts: 21,
      timeout: 1800,
      backoff: { kind: 'none' },
      retryOn: ['timeout', 'reset', '5xx', '4xx'],
      retryable: 'ignore',
      deadLetter: false,
    },
  },

  celery: {
    library: 'Celery task autoretry (autoretry_for)',
    version: '5.5.3',
    source:
      'https://github.com/celery/celery/blob/v5.5.3/celery/app/task.py (Task.max_retries = 3, default_retry_delay = 3 * 60), ' +
      'celery/app/autoretry.py (retry_backoff False, retry_backoff_max 600, retry_jitter True), celery/utils/time.py ' +
      '(get_exponential_backoff_interval); https://docs.celeryq.dev/en/stable/userguide/tasks.html#automatic-retry-for-known-exceptions',
    notes:
      'max_retries 3 (4 runs), each retry re-published with countdown default_retry_delay = 180 s, no jitter ' +
      '(retry_backoff is False by default). With retry_backoff=True the countdown is min(retry_backoff_max 600, ' +
      'factor 1 * 2^(n-1)) s, and with retry_jitter True (default) a uniform whole number in [0, countdown] (full ' +
      'jitter): override with backoff {kind: exponential, base: 1s, multiplier: 2, max: 600s, jitter: full}. ' +
      'autoretry_for has no default: only the listed exceptions are retried; this preset assumes they cover the ' +
      'downstream failures (timeout, reset, 5xx, 4xx raised by raise_for_status). No default task time limit. After ' +
      'max_retries the task fails (no dead-letter queue). Values read from copies of these files (celery/app/autoretry.py ' +
      'as published on docs.celeryq.dev for 5.0.2 and a later 5.x copy with dont_autoretry_for), not at the v5.5.3 tag.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'constant', base: 180, max: Infinity, jitter: 'none' },
      retryOn: ['timeout', 'reset', '5xx', '4xx'],
      retryable: 'ignore',
    },
  },
};
