import type { LoginRequest } from "@common/auth.ts";
import { apiRequest } from "@/lib/api-client";
import type { SessionUser } from "./get-user";

export async function login(credentials: LoginRequest): Promise<SessionUser> {
  const response = await apiRequest("POST", "/api/login", credentials);
  return response.json();
}
