// `express4` is Express 4.21 installed under an alias for these tests; its API matches the types of `express`.
declare module 'express4' {
  import express from 'express';
  export default express;
}
