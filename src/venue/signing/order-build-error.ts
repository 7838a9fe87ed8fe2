import { ParameterError } from '../../core/errors.ts';

/**
 * An order could not be built: a price off the tick grid or out of bounds, a size that rounds to
 * zero, an option the order type does not allow. Thrown before anything is signed or sent. It is
 * a ParameterError (route `order`), so callers that refuse bad parameters catch both alike.
 */
export class OrderBuildError extends ParameterError {
  override readonly name: string = 'OrderBuildError';
  constructor(param: string, rule: string) {
    super('order', param, rule);
  }
}
