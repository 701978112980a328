/** esbuild bundles stylesheets imported by the console's entry into one file beside the script. */
declare module '*.css';
