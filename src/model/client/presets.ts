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
 * docs/presets.md has a table per preset.
 */
import type { Preset } from './layer-spec.js';
import type { PresetName } from '../../scenario/preset-names.js';

export const PRESETS: Record<PresetName, Preset> = {
  got: {
    library: 'got (Node.js HTTP client)',
    version: '14.4.7',
    source:
      'https://github.com/sindresorhus/got/blob/main/documentation/7-retry.md (retry defaults) and ' +
      'https://github.com/sindresorhus/got/blob/main/source/core/calculate-retry-delay.ts (delay formula, Retry-After); ' +
      'the same formula is in got@11.8.2 dist/source/core/calculate-retry-delay.js (unpkg)',
    notes:
      'retry.limit 2 (3 attempts); only GET, PUT, HEAD, DELETE, OPTIONS, TRACE are retried (not POST). ' +
      'Delay = 1000ms * 2^(n-1) + uniform(0, noise=100ms), backoffLimit Infinity: the additive 0-100ms noise is ' +
      'approximated by proportional jitter ±5% (same 100ms spread at the first retry, 1.0-1.1s in got vs 0.95-1.05s here; ' +
      'the spread grows with the wait here but stays 100ms in got). 413 is retried only when it carries Retry-After. ' +
      'With Retry-After, got waits exactly that long, or does not retry when it exceeds maxRetryAfter, which defaults to ' +
      'timeout.request (none by default): so give-up with max Infinity; if you set timeout, set retryAfter.max to the same ' +
      'value to mirror got. Error codes retried: ETIMEDOUT, ECONNRESET, EADDRINUSE, ECONNREFUSED, EPIPE, ENOTFOUND, ' +
      'ENETUNREACH, EAI_AGAIN. got has no default timeout. Values read on the main branch, not at the v14.4.7 tag.',
    layer: {
      maxAttempts: 3,
      backoff: { kind: 'exponential', base: 1, multiplier: 2, max: Infinity, jitter: 'proportional', jitterFactor: 0.05 },
      retryOn: ['timeout', 'reset', 408, 413, 429, 500, 502, 503, 504, 521, 522, 524],
      retryAfter: { mode: 'give-up', max: Infinity },
    },
  },

  'axios-retry': {
    library: 'axios-retry (plugin for axios)',
    version: '4.5.0',
    source:
      'https://github.com/softonic/axios-retry/blob/master/src/index.ts (DEFAULT_OPTIONS, isNetworkOrIdempotentRequestError, ' +
      'isRetryableError, noDelay); 429 and Retry-After support: https://github.com/softonic/axios-retry/pull/270 (released in 4.2.0)',
    notes:
      'retries 3 (4 attempts). Default retryCondition isNetworkOrIdempotentRequestError: network errors (no response, ' +
      'code not ECONNABORTED/ERR_CANCELED, is-retry-allowed) on any method, 5xx and 429 only on GET, HEAD, OPTIONS, PUT, ' +
      'DELETE. Timeouts (ECONNABORTED) are not retried. Default retryDelay is noDelay: retry at once, or after exactly the ' +
      'Retry-After value when the answer has one (no cap). axios sets no timeout by default; with a timeout and ' +
      'shouldResetTimeout false (default), the timeout spans all attempts (a deadline, not a per-try timeout). ' +
      'Versions before 4.2.0 did not retry 429 or read Retry-After.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'none' },
      retryOn: ['reset', '5xx', 429],
      retryAfter: { mode: 'honour' },
    },
  },

  urllib3: {
    library: 'urllib3 (Python HTTP client)',
    version: '2.6.3',
    source:
      'https://github.com/urllib3/urllib3/blob/main/src/urllib3/util/retry.py (Retry.__init__ defaults, Retry.DEFAULT = Retry(3), ' +
      'RETRY_AFTER_STATUS_CODES, DEFAULT_RETRY_AFTER_MAX, is_retry, get_backoff_time, sleep)',
    notes:
      'Retry.DEFAULT is Retry(3): total 3 (4 attempts); the Retry() constructor default is total 10. status_forcelist ' +
      'None: no status is retried on its own; 413, 429 and 503 are retried only when they carry a Retry-After header ' +
      '(respect_retry_after_header True), and the wait is then the header value capped at retry_after_max ' +
      '(21600 s, 6 h, added in 2.6.3). The simulator cannot make a retry depend on the header, so those statuses are left ' +
      'out of retryOn: add them (retryOn: [timeout, reset, 413, 429, 503]) when the server sends Retry-After. Connect errors ' +
      'are retried on any method, read errors (read timeouts, resets while reading) only on HEAD, GET, PUT, DELETE, ' +
      'OPTIONS, TRACE. backoff_factor 0: no wait (with a factor, the first retry is still immediate and later ones wait ' +
      'factor * 2^(n-1), capped at backoff_max 120 s; exponential here cannot make the first retry immediate). ' +
      'requests\' HTTPAdapter uses max_retries 0 instead (no retries). No default timeout.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'none' },
      retryOn: ['timeout', 'reset'],
      retryAfter: { mode: 'cap', cap: 21600 },
    },
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
      'retried; http.Client.Timeout errors are. For 429 and 503 with Retry-After it waits exactly the header value, ' +
      'not capped by RetryWaitMax. The default client (go-cleanhttp pooled) has no overall timeout. Read from a vendored ' +
      'copy of client.go matching v0.7.7 (PrepareRetry, isCertError), not from the tag itself.',
    layer: {
      maxAttempts: 5,
      backoff: { kind: 'exponential', base: 1, multiplier: 2, max: 30, jitter: 'none' },
      retryOn: ['timeout', 'reset', '5xx', 429],
      retryAfter: { mode: 'honour' },
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
    library: 'gRPC client retries with retryThrottling (service config)',
    version: 'gRFC A6 (last updated 2017-09-13), implemented in grpc-java, grpc-go, grpc-core',
    source:
      'https://github.com/grpc/proposal/blob/master/A6-client-retries.md (example retryPolicy and retryThrottling, ' +
      'backoff formula, throttling rule, pushback, client-side maxAttempts limit 5)',
    notes:
      'gRPC has no default retry policy: an RPC is retried only if the service config has a retryPolicy. These are the ' +
      'values of the gRFC\'s own example: maxAttempts 4, initialBackoff 0.1s, maxBackoff 1s, backoffMultiplier 2, ' +
      'retryableStatusCodes [UNAVAILABLE]; retryThrottling maxTokens 10, tokenRatio 0.1. Wait before retry n is ' +
      'random(0, min(initialBackoff * multiplier^(n-1), maxBackoff)) = full jitter. UNAVAILABLE stands for 503 and for ' +
      'broken connections (reset); DEADLINE_EXCEEDED is not retried and the call deadline spans all attempts (no ' +
      'per-attempt timeout, no default deadline). Server pushback (grpc-retry-pushback-ms) is modelled as Retry-After ' +
      '(honour); a negative pushback (do not retry) is not. maxAttempts above 5 is treated as 5 by clients. Transparent ' +
      'retries (RPCs that never left the client) are not modelled.',
    layer: {
      maxAttempts: 4,
      backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'full' },
      retryOn: ['reset', 503],
      retryAfter: { mode: 'honour' },
      budget: { kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 },
    },
  },

  'aws-sdk-js-v3': {
    library: 'AWS SDK for JavaScript v3, standard retry mode',
    version: '3.x before 3.1166.0 (pre-2026 defaults; @smithy/util-retry StandardRetryStrategy)',
    source:
      'https://github.com/smithy-lang/smithy-typescript/blob/main/packages/util-retry/src/constants.ts (100 ms base, 20 s max, ' +
      '500 / 5 / 10 / 1 quota), .../util-retry/src/config.ts (DEFAULT_MAX_ATTEMPTS 3), .../util-retry/src/StandardRetryStrategy.ts, ' +
      '.../util-retry/src/defaultRetryBackoffStrategy.ts, .../service-error-classification/src/constants.ts and index.ts, ' +
      '.../middleware-retry/src/retryMiddleware.ts; https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html',
    notes:
      'maxAttempts 3. Wait = random() * 2^(n-1) * 100 ms, capped at 20 s (full jitter); for throttling errors (429 and ' +
      'throttling error codes) the base is 500 ms, which a single backoff cannot express. Retried: TRANSIENT errors ' +
      '(TimeoutError, RequestTimeout, ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT, ENOTFOUND, 500, 502, 503, 504) and ' +
      'THROTTLING (429, Throttling/ThrottlingException and other codes, which services often send as 400). Other 5xx ' +
      'are not retried. Quota: 500 tokens, a retry costs 10 after a TRANSIENT error (timeouts, resets AND 500/502/503/504) ' +
      'and 5 after throttling; here timeoutCost applies to timeouts only, so a 5xx retry costs 5 instead of 10. A success ' +
      'refunds the retry\'s cost, or 1 for a first try. Some @smithy/util-retry releases had recordSuccess use ' +
      'Math.max(500, capacity + refund), which refills the bucket to 500 on any success; later ones use Math.min (the ' +
      'specified behaviour, modelled here); which release fixed it was not verified. Retry-After: the wait is at least the ' +
      'header (max of the two); the older getRetryAfterHint read a numeric Retry-After as an epoch date and so ignored it, ' +
      'later parseRetryAfterHeader fixes that and also reads x-amz-retry-after. Default request/connection timeouts of ' +
      'the Node handler: not verified, none assumed. From 3.1166.0 (with @smithy/core 3.40.0) the 2026 defaults apply: ' +
      'base 50 ms, throttling base 1 s, transient retry cost 14, throttling cost 5 (util-retry/src/retries-2026-config.ts).',
    layer: {
      maxAttempts: 3,
      backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 20, jitter: 'full' },
      retryOn: ['timeout', 'reset', 429, 500, 502, 503, 504],
      retryAfter: { mode: 'honour' },
      budget: { kind: 'aws-quota', capacity: 500, retryCost: 5, timeoutCost: 10, successRefund: 1 },
    },
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
      '(RetryBudget(): ttl 10 s, minRetriesPerSec 10, percentCanRetry 0.2), .../service/Retries.scala (Budget.default with ' +
      'Backoff.const(Duration.Zero), MaxRequeuesPerReq 0.2, RetryPolicy.Never), .../service/RequeueFilter.scala',
    notes:
      'By default Finagle retries only requeueable failures (RetryableWriteException: the request was never written, e.g. ' +
      'connection refused, and server NACKs), with no application-level RetryPolicy (RetryPolicy.Never) and no wait ' +
      '(Backoff.const(0)). Per request it allows ceil(0.2 * budget balance) requeues: 20 at the full reserve ' +
      '(10/s * 10 s = 100), so maxAttempts 21; the shared budget is the real limit. NACKs (a Finagle server refusing ' +
      'work, sent over HTTP as a 503 with a nack header) are not modelled: add 503 to retryOn to stand for them. The ' +
      'RequeueFilter deposits into the budget only on successful responses; the simulator\'s finagle budget deposits on ' +
      'every request. Read on the develop branch, not at the 24.2.0 tag.',
    layer: {
      maxAttempts: 21,
      backoff: { kind: 'none' },
      retryOn: ['reset'],
      budget: { kind: 'finagle', ttl: 10, minRetriesPerSec: 10, percentCanRetry: 0.2 },
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
      '60 s, allows 10 calls half-open; calls are refused with CallNotPermittedException (fail). Not modelled: ' +
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
    library: 'Polly v8 retry strategy (Polly.Core RetryStrategyOptions)',
    version: 'Polly.Core 8.5.2',
    source:
      'https://www.pollydocs.org/strategies/retry#defaults and https://www.pollydocs.org/api/Polly.Retry.RetryStrategyOptions-1.html ' +
      '(MaxRetryAttempts 3, Delay 2 s, BackoffType Constant, UseJitter false, MaxDelay null, ShouldHandle: any exception ' +
      'except OperationCanceledException); src/Polly.Core/Retry/RetryConstants.cs',
    notes:
      'MaxRetryAttempts 3 (4 attempts), constant 2 s, no jitter. ShouldHandle retries every exception except ' +
      'OperationCanceledException, and no result: HttpClient answers are retried only if the caller throws on them ' +
      '(EnsureSuccessStatusCode, GetStringAsync), assumed here, hence 4xx and retryable: ignore. HttpClient.Timeout ' +
      'throws TaskCanceledException (an OperationCanceledException), so timeouts are NOT retried by default. No ' +
      'Retry-After handling in Polly.Core. With BackoffType Exponential and UseJitter true, Polly v8 uses the ' +
      'DecorrelatedJitterBackoffV2 algorithm of Polly.Contrib.WaitAndRetry, with Delay as the median first wait: ' +
      'backoff {kind: exponential, jitter: decorrelated-v2, base: 2s}. This is Polly v8 (Polly.Core), not the v7 ' +
      'WaitAndRetry policies nor the Microsoft.Extensions.Http.Resilience standard pipeline, whose defaults differ ' +
      '(those were not verified here). Values read on pollydocs.org (current 8.x docs), not at the 8.5.2 tag.',
    layer: {
      maxAttempts: 4,
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
      'redeliveries; 3.13 and earlier had no default limit.',
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
