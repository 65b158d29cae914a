import type { RegisterRequest } from "@common/auth.ts";
import { apiRequest } from "@/lib/api-client";
import type { SessionUser } from "./get-user";

export async function register(payload: RegisterRequest): Promise<SessionUser> {
  const response = await apiRequest("POST", "/api/register", payload);
  return response.json();
}
