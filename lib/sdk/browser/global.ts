// The script-tag build's entry (kassa.global.js): `window.Kassa(publicKey)`, with the error classes
// on it for `instanceof` checks (`Kassa.KassaError`).
import { Kassa, KassaError, KassaNetworkError } from "./kassa";

(window as unknown as { Kassa: unknown }).Kassa = Object.assign(Kassa, { KassaError, KassaNetworkError });
