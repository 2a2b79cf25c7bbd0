// Public facade of the classification engine. Other features import only from here.
export * from './vocabulary';
export * from './normalize';
export * from './classify';
