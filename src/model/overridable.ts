/**
 * A setting that operator actions change and undo: the server's instances and slots per
 * instance, its Retry-After contract, a population's remote switch.
 *
 * Why not "remember the value before, put it back on undo": with two actions on one setting
 * (scale to 4, later to 8), undoing the first would put back the value from before it and
 * silently cancel the second, and undoing both in the order they fired would end at the
 * first one's value. Here each action's value stays in force until it is undone or a later
 * action overrides it; undoing an action takes out its own value only, and the setting is
 * then the latest value still in force, or its base when none is.
 *
 * A writer without an undo (the autoscaler, deciding the instance count from what it sees)
 * sets the base and supersedes every action before it: their undos then change nothing.
 */
export class Overridable<T> {
  private readonly inForce: Array<{ value: T }> = [];

  /** `apply` makes a value take effect; it runs whenever the setting's value changes hands. */
  constructor(private base: T, private readonly apply: (value: T) => void) {}

  /** The value in force: the latest action's still in force, else the base. */
  get value(): T {
    return this.inForce.length > 0 ? this.inForce[this.inForce.length - 1].value : this.base;
  }

  /** An action's value, in force from now until the returned undo runs (or a writer without undo supersedes it). */
  override(value: T): () => void {
    const entry = { value };
    this.inForce.push(entry);
    this.apply(value);
    return () => {
      const i = this.inForce.indexOf(entry);
      if (i < 0) return; // superseded, or undone already
      this.inForce.splice(i, 1);
      this.apply(this.value);
    };
  }

  /** A value set without an undo: the new base, superseding every action in force. */
  set(value: T): void {
    this.inForce.length = 0;
    this.base = value;
    this.apply(value);
  }
}
