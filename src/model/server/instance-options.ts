/**
 * What an instance is built from: its slots and queue, the queue's policies, its deadlines,
 * and per route what serving a request takes (its service time, its calls to dependencies
 * and to other services).
 *
 * Why a module of its own: both halves of an instance read it (instance.ts, its queue, and
 * slots.ts, its slots), and the slots are imported by the instance; the options here import
 * neither, so neither half has to import the other to know its own settings.
 */
import type { Dependency } from './dependencies.js';
import type { FairQueueOptions } from './fair-queue.js';
import type { RedDropper } from './red.js';
import type { ServiceCalls } from '../graph/waiting-jobs.js';

export interface InstanceOptions {
  slots: number;
  /** Most slots the instance may be given during the run (slot tables are sized for it; default `slots`). */
  maxSlots?: number;
  /** Queue capacity in attempts (Infinity = unbounded). */
  queueCapacity: number;
  lifo: boolean;
  /** CoDel (adaptive LIFO): target M and interval N in seconds; undefined = off. */
  codel?: { target: number; interval: number; adaptiveLifo: boolean };
  /** Contention: service time x (1 + factor * (busy/slots)^exponent). */
  contention?: { factor: number; exponent: number };
  dropAbandoned: boolean;
  /** Longest wait in the queue before the server refuses the attempt itself (Infinity = none). */
  deadline: number;
  /** Longest a request may run in its slot before the server cuts it and frees the slot (Infinity = none). */
  executionDeadline?: number;
  failFastTime: number;
  /** Per route index: its service time and the dependencies each request calls. */
  routes: RouteHandler[];
  /** Fair queueing and priority classes (fair-queue.ts) instead of one line; undefined = one line. */
  fair?: FairQueueOptions;
  /** The deadline an attempt carries (src/model/graph/): queued work past it is dropped unserved. */
  deadlineOf?: (attempt: number) => number;
  /** Random early detection at arrival (red.ts), this instance's own; undefined = off. */
  red?: RedDropper;
}

export interface RouteHandler {
  serviceTime: () => number;
  calls: Dependency[];
  /** Calls to other services of the graph (src/model/graph/route-calls.ts), made before the service time. */
  services?: ServiceCalls;
}
