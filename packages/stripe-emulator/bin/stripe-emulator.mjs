#!/usr/bin/env node
// `npx stripe-emulator [--port N] [--host H]`: runs the TypeScript server through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
