/**
 * The fitting itself, run in a worker thread (never on the server's event loop): FSRS parameters computed from a
 * learner's review histories by fsrs-rs (its native build, `@open-spaced-repetition/binding-linux-x64-gnu`), and how
 * well the default and the fitted
 * parameters predict those histories. The worker's code is `fitHistories`' own source (app/server/worker-task.server.ts),
 * so it must use nothing from outside its body but its arguments.
 */

/**
 * What the fitting uses of fsrs-rs's Node binding, as its own declarations (MIT, open-spaced-repetition/ts-fsrs,
 * packages/binding, 0.5.0) say. The app loads the native build directly (ADR 062): the package that would choose the
 * build for the platform names builds for other platforms that were never published at its version, so a lock file
 * with it cannot be installed by `npm ci`.
 */
export namespace Binding {
  export interface FSRSBindingReview {
    readonly rating: number;
    readonly deltaT: number;
  }
  export interface FSRSBindingItem {
    longTermReviewCnt(): number;
  }
  export interface ModelEvaluation {
    logLoss: number;
    rmseBins: number;
  }
}
export type Binding = {
  FSRSBindingReview: new (rating: number, deltaT: number) => Binding.FSRSBindingReview;
  FSRSBindingItem: new (reviews: Binding.FSRSBindingReview[]) => Binding.FSRSBindingItem;
  FSRSBinding: new (parameters?: number[]) => {
    evaluate(trainSet: Binding.FSRSBindingItem[]): Binding.ModelEvaluation;
  };
  computeParameters(trainSet: Binding.FSRSBindingItem[], options?: { enableShortTerm: boolean }): Promise<number[]>;
};

/**
 * One term's reviews since it was new, flattened: rating (1–4), then the days since the review before (0 for the
 * first and for reviews on the same day), and so on.
 */
export type History = number[];

export type FitOutcome =
  | { fitted: false; items: number }
  | {
      fitted: true;
      items: number;
      parameters: number[];
      defaults: { logLoss: number; rmse: number };
      fit: { logLoss: number; rmse: number };
      ms: number;
    };

/**
 * fsrs-rs trains only on items (a review with the reviews of the same term before it) that include a review on a later
 * day; with fewer than 64 of them `compute_parameters` returns the defaults (under 8) or only the four initial
 * stabilities, never a fitted model (fsrs-rs src/training.rs). That is the optimizer's own minimum.
 */
export const OPTIMIZER_MIN_ITEMS = 64;

export async function fitHistories(
  binding: Binding,
  { histories, minItems }: { histories: History[]; minItems: number },
): Promise<FitOutcome> {
  const started = performance.now();
  const items: Binding.FSRSBindingItem[] = [];
  for (const history of histories) {
    const reviews: Binding.FSRSBindingReview[] = [];
    for (let i = 0; i + 1 < history.length; i += 2) {
      reviews.push(new binding.FSRSBindingReview(history[i]!, reviews.length === 0 ? 0 : history[i + 1]!));
      // The binding copies the reviews it is given: one growing list serves every prefix.
      if (reviews.length >= 2) items.push(new binding.FSRSBindingItem(reviews));
    }
  }
  const trainable = items.filter((item) => item.longTermReviewCnt() > 0);
  if (trainable.length < minItems) return { fitted: false, items: trainable.length };
  let parameters: number[];
  let defaults: Binding.ModelEvaluation;
  let fit: Binding.ModelEvaluation;
  try {
    parameters = await binding.computeParameters(trainable, { enableShortTerm: true });
    defaults = new binding.FSRSBinding().evaluate(trainable);
    fit = new binding.FSRSBinding(parameters).evaluate(trainable);
  } catch (error) {
    // fsrs-rs leaves out outliers (rare first intervals) before it counts again: it may still find too few.
    if (String((error as Error)?.message ?? error).includes("NotEnoughData")) return { fitted: false, items: 0 };
    throw error;
  }
  return {
    fitted: true,
    items: trainable.length,
    parameters,
    defaults: { logLoss: defaults.logLoss, rmse: defaults.rmseBins },
    fit: { logLoss: fit.logLoss, rmse: fit.rmseBins },
    ms: performance.now() - started,
  };
}
