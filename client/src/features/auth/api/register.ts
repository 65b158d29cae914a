import type { RegisterRequest } from "@common/auth.ts";
import { apiRequest } from "@/lib/api-client";
import { readerPlace } from "@/lib/reader-place";
import type { SessionUser } from "./get-user";

export async function register(payload: RegisterRequest): Promise<SessionUser> {
  const response = await apiRequest("POST", "/api/register", { ...readerPlace(), ...payload });
  return response.json();
}
