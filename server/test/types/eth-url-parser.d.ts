declare module "eth-url-parser" {
  export function parse(uri: string): {
    scheme: string;
    target_address: string;
    chain_id?: string;
    function_name?: string;
    parameters?: Record<string, string | number>;
  };
  export function build(input: object): string;
}
