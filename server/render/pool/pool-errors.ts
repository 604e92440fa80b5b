import { BadInputError, DependencyDownError, OverLimitError, TargetTimeoutError } from '../../errors/index.js';

/** The browser pool's own failures, as members of the error vocabulary. */

/** Every renderer is busy and the wait queue is full (or the wait ran out). */
export class RenderQueueFullError extends OverLimitError {
  readonly code = 'render_queue_full';
}

/** This caller already has as many renders running and waiting as its share allows. */
export class RenderShareExceededError extends OverLimitError {
  readonly code = 'render_share_exceeded';
}

/** The render ran past its time cap. */
export class RenderTimeoutError extends TargetTimeoutError {
  readonly code = 'render_timeout';
}

/** Chromium (or the page's renderer) died under the render; a retry gets a fresh one. */
export class BrowserCrashedError extends DependencyDownError {
  readonly code = 'browser_crashed';

  constructor() {
    super('browser', 'the browser stopped during the render; try again in a second (the next render gets a fresh browser)', 1);
  }
}

/** The pool is closing (the process is shutting down). */
export class RendererClosingError extends DependencyDownError {
  readonly code = 'renderer_closing';

  constructor() {
    super('browser', 'this server is shutting down; retry in a few seconds (another instance takes over)', 2);
  }
}

/** The page kept its script running past the render's budget; the renderer stopped it. */
export class ScriptBudgetError extends BadInputError {
  readonly code = 'script_budget_exceeded';

  constructor(budgetMs: number) {
    super(
      `the page's script ran for more than ${budgetMs} ms of the render's script budget (an endless loop or heavy work); ` +
        'the render was stopped. Remove the long-running script (js, the posted HTML or the page) and retry',
    );
  }
}
