// Types of the <rate-limit-playground> element (see ratelab.d.ts for the options,
// which are its attributes).
export class RateLimitPlayground extends HTMLElement {
  /** Whether the playground is mounted: false while the element shows its static frame
   * (it mounts when it comes within about one screen of the viewport). */
  readonly mounted: boolean;
  /** The element's current state as a query string (for embed.html?… or the page). */
  readonly query: string;
}

declare global {
  interface HTMLElementTagNameMap {
    'rate-limit-playground': RateLimitPlayground;
  }
}
