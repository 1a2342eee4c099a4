// Vite's asset imports as the renderer's typecheck sees them (a stylesheet import has no value).
declare module '*.css';
