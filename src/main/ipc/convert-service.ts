// The contract's conversion operations (getConversionChoices, previewConversion, runConversion) as the handlers
// table names them, over the small service trading/convert-access.ts provides; unavailable like the money actions
// when the session has no order flow or wallets.
import type { ConversionChoices, ConversionDone, ConversionPreview, ParsedInput } from '../../shared/contract';
import { ServiceUnavailable, type Handlers } from './router';

export interface ConvertService {
  choices(input: ParsedInput<'getConversionChoices'>): Promise<ConversionChoices>;
  preview(input: ParsedInput<'previewConversion'>): Promise<ConversionPreview>;
  run(input: ParsedInput<'runConversion'>): Promise<ConversionDone>;
}

export function conversionHandlers(
  service: () => ConvertService | undefined,
  unavailable: string,
): Pick<Handlers, 'getConversionChoices' | 'previewConversion' | 'runConversion'> {
  const convert = (): ConvertService => {
    const found = service();
    if (!found) throw new ServiceUnavailable(unavailable);
    return found;
  };
  return {
    getConversionChoices: (input) => convert().choices(input),
    previewConversion: (input) => convert().preview(input),
    runConversion: (input) => convert().run(input),
  };
}
